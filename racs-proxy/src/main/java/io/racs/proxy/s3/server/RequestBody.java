package io.racs.proxy.s3.server;

import io.netty.buffer.ByteBuf;
import io.racs.proxy.s3.checksum.ChecksumVerifier;
import io.racs.proxy.s3.checksum.ComputedChecksums;
import io.racs.proxy.s3.chunked.BodyDecoder;
import io.racs.proxy.s3.chunked.DecodedBody;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.handler.S3Request;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A request body as the handler thread reads it: raw HTTP content arrives from the event loop into
 * a small queue ({@link #offer}), and {@link #read} decodes it (aws-chunked framing and signatures,
 * or a plain payload hash) and feeds every payload byte to the checksum verifier. At the end of the
 * body the decoder and the checksums are checked before {@code -1} is returned, so a store that
 * commits only after reading to the end never commits a body that fails them.
 *
 * <p>Backpressure: the event loop asks for more socket data only while fewer than {@link
 * #HIGH_WATER_BYTES} wait here ({@code channel autoRead} is off), so memory per request stays
 * bounded and a slow store slows the client. A failure in decoding or a checksum mismatch is an
 * {@link IOException} whose cause is the {@link S3Exception} to answer with.
 */
final class RequestBody extends InputStream implements S3Request.Payload {
  static final int HIGH_WATER_BYTES = 1 << 20;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<ByteBuf> queue = new ArrayDeque<>();
  private final BodyDecoder decoder;
  private final ChecksumVerifier verifier;
  private final Runnable requestMore;
  private final long maxBytes;
  private long payloadBytes;
  private final ArrayDeque<ByteBuffer> decoded = new ArrayDeque<>();
  private long queuedBytes;
  private boolean lastReceived;
  private boolean finished;
  private boolean wantMore;
  private Throwable failure;
  private ComputedChecksums checksums;
  private Map<String, String> trailers = Map.of();
  private long decodedBytes;
  // Set before the handler starts; run and cleared by the first take() (see askOnFirstRead).
  private volatile Runnable onFirstRead;

  /**
   * @param decoder turns raw content into payload (its sink must call {@link #payload})
   * @param verifier checks the payload's checksums; null for none
   * @param requestMore asks the event loop to read more from the socket
   * @param maxBytes the most payload the body may carry ({@code EntityTooLarge} beyond), for bodies
   *     whose length the head does not declare
   * @throws S3Exception when the headers call for a decoder they do not configure (a missing or
   *     malformed length)
   */
  RequestBody(
      BodyDecoderFactory decoder, ChecksumVerifier verifier, Runnable requestMore, long maxBytes) {
    this.decoder = decoder.create(this::payload);
    this.verifier = verifier;
    this.requestMore = requestMore;
    this.maxBytes = maxBytes;
  }

  /** Makes the body decoder for a sink. */
  interface BodyDecoderFactory {
    BodyDecoder create(io.racs.proxy.s3.chunked.PayloadSink sink);
  }

  /**
   * From the event loop: raw content (retained by the caller for us). Returns true when the caller
   * may read more from the socket now.
   */
  boolean offer(ByteBuf content, boolean last) {
    lock.lock();
    try {
      if (failure != null || finished) {
        content.release();
        return !last;
      }
      queue.add(content);
      queuedBytes += content.readableBytes();
      lastReceived |= last;
      changed.signalAll();
      if (last) {
        return false;
      }
      if (queuedBytes >= HIGH_WATER_BYTES) {
        wantMore = true;
        return false;
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** From the event loop: the connection is gone or the request is abandoned. */
  void fail(Throwable cause) {
    lock.lock();
    try {
      if (failure == null) {
        failure = cause;
      }
      releaseQueue();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Holds the body back until it is first read: {@code ask} runs once, on the reading thread,
   * before the first read waits for content. The connection passes the step that tells a client
   * waiting on {@code Expect: 100-continue} to send its body (and starts reading the socket), so a
   * request its handler refuses before reading the body is answered without that client ever
   * sending it. Called before the handler starts; a body never read never runs {@code ask}.
   */
  void askOnFirstRead(Runnable ask) {
    onFirstRead = ask;
  }

  /** True once the whole body has arrived from the socket (nothing left to drain there). */
  boolean fullyReceived() {
    lock.lock();
    try {
      return lastReceived;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public InputStream stream() {
    return this;
  }

  @Override
  public ComputedChecksums checksums() {
    return checksums;
  }

  @Override
  public Map<String, String> trailers() {
    return trailers;
  }

  /** Payload bytes read so far. */
  long decodedBytes() {
    return decodedBytes;
  }

  private void payload(ByteBuffer payload) {
    payloadBytes += payload.remaining();
    if (payloadBytes > maxBytes) {
      throw RequestGate.entityTooLarge(payloadBytes);
    }
    if (payload.hasRemaining()) {
      ByteBuffer copy = ByteBuffer.allocate(payload.remaining());
      copy.put(payload).flip();
      if (verifier != null) {
        verifier.update(copy.duplicate());
      }
      decoded.add(copy);
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (decoded.isEmpty()) {
      if (finished) {
        return -1;
      }
      ByteBuf raw = take();
      try {
        if (raw == null) {
          finish();
          continue;
        }
        decoder.feed(raw.nioBuffer());
      } catch (S3Exception e) {
        throw failed(e);
      } finally {
        if (raw != null) {
          raw.release();
        }
      }
    }
    ByteBuffer head = decoded.peek();
    int n = Math.min(len, head.remaining());
    head.get(b, off, n);
    if (!head.hasRemaining()) {
      decoded.poll();
    }
    decodedBytes += n;
    return n;
  }

  private void finish() throws IOException {
    try {
      DecodedBody body = decoder.finish();
      trailers = body.trailers();
      checksums = verifier == null ? null : verifier.verify(body.trailers());
      finished = true;
    } catch (S3Exception e) {
      throw failed(e);
    }
  }

  private IOException failed(S3Exception e) {
    fail(e);
    return new IOException(e.getMessage(), e);
  }

  /** The next raw chunk, or null at the end of the body. */
  private ByteBuf take() throws IOException {
    Runnable ask = onFirstRead;
    if (ask != null) {
      onFirstRead = null;
      ask.run();
    }
    lock.lock();
    try {
      while (queue.isEmpty() && !lastReceived && failure == null) {
        changed.awaitUninterruptibly();
      }
      return nextLocked();
    } finally {
      lock.unlock();
    }
  }

  private ByteBuf nextLocked() throws IOException {
    if (failure != null) {
      if (failure instanceof S3Exception s3) {
        throw new IOException(s3.getMessage(), s3);
      }
      throw new IOException("request body failed: " + failure.getMessage(), failure);
    }
    ByteBuf next = queue.poll();
    if (next == null) {
      return null; // lastReceived and drained
    }
    queuedBytes -= next.readableBytes();
    if (queuedBytes < HIGH_WATER_BYTES / 2 && wantMore) {
      wantMore = false;
      lock.unlock();
      try {
        requestMore.run();
      } finally {
        lock.lock();
      }
    }
    return next;
  }

  private void releaseQueue() {
    for (ByteBuf buf : queue) {
      buf.release();
    }
    queue.clear();
    queuedBytes = 0;
  }

  @Override
  public void close() {
    lock.lock();
    try {
      releaseQueue();
    } finally {
      lock.unlock();
    }
  }

  /** Marks an incomplete body (the client went away). */
  static S3Exception incomplete() {
    return S3Exception.of(S3ErrorCode.INCOMPLETE_BODY, "The request body ended early.");
  }
}
