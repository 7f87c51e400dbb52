package io.racs.repos.sftp;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.sftp.client.SftpErrorDataHandler;
import org.apache.sshd.sftp.client.SftpVersionSelector;
import org.apache.sshd.sftp.client.impl.DefaultSftpClient;

/**
 * One SFTP channel of an {@link SftpRepository}: MINA's client, except that the late reply to a
 * request whose wait timed out is dropped instead of killing the SSH session.
 *
 * <p>MINA forgets a request's id when its wait ends without an answer (a timeout, an interrupt);
 * when the server's answer arrives later, {@link DefaultSftpClient} takes it for a reply "to a
 * request never sent", a protocol error that closes the whole session, and every channel and call
 * in flight on it. A server under load answers late as a matter of course, so this channel
 * remembers the ids it gave up on and lets their replies go.
 */
final class SftpChannel extends DefaultSftpClient {
  /** Ids of requests waited for and not answered; their replies may still come. */
  private final Set<Integer> unanswered = ConcurrentHashMap.newKeySet();

  private SftpChannel(ClientSession session) throws IOException {
    super(session, SftpVersionSelector.fixedVersionSelector(3), SftpErrorDataHandler.EMPTY);
  }

  /** Opens a channel on {@code session} that speaks SFTP version 3. */
  static SftpChannel open(ClientSession session) throws IOException {
    SftpChannel channel = new SftpChannel(session);
    try {
      channel.negotiateVersion(SftpVersionSelector.fixedVersionSelector(3));
      return channel;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  @Override
  public Buffer receive(int id, Duration timeout) throws IOException {
    if (timeout == null || timeout.isZero() || timeout.isNegative()) {
      return super.receive(id, timeout); // a poll: nothing is given up
    }
    // Recorded before the wait, so that no reply can slip between MINA forgetting the id and
    // this channel remembering it.
    unanswered.add(id);
    Buffer reply = null;
    try {
      reply = super.receive(id, timeout);
      return reply;
    } finally {
      if (reply != null) {
        unanswered.remove(id);
      }
    }
  }

  @Override
  protected void process(Buffer incoming) throws IOException {
    int id = peekId(incoming);
    try {
      super.process(incoming);
    } catch (IOException e) {
      // During the super constructor the set may not exist yet; nothing was abandoned then.
      if (unanswered != null && unanswered.remove(id)) {
        return; // the late reply to a request given up on: nobody wants it
      }
      throw e;
    }
  }

  /** The request id of an SFTP reply (length, type, id), leaving the buffer as it was. */
  private static int peekId(Buffer incoming) {
    int start = incoming.rpos();
    try {
      incoming.getInt();
      incoming.getUByte();
      return incoming.getInt();
    } finally {
      incoming.rpos(start);
    }
  }
}
