package io.racs.proxy.s3.server;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The socket transport the S3 server's event loops run on ({@code server.transport}). {@link #AUTO}
 * is epoll where Netty's native epoll library loads (Linux on x86-64), else NIO; {@link #IO_URING}
 * is used only when asked for, and a server asked for a native transport the machine cannot load
 * refuses to start rather than fall back in silence ({@link EventLoops}).
 */
public enum Transport {
  /** Epoll where it is available, else NIO: the default. */
  AUTO,
  /** Netty's native epoll transport (Linux). */
  EPOLL,
  /** Netty's native io_uring transport (Linux, on a kernel that allows io_uring). */
  IO_URING,
  /** The JDK's NIO selector: available everywhere, the fallback. */
  NIO;

  /** The word for this transport in the configuration file, metrics and logs. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The transport a configuration word names ({@code auto}, {@code epoll}, {@code io_uring}, {@code
   * nio}).
   *
   * @throws IllegalArgumentException when it names none, saying which words are
   */
  public static Transport of(String word) {
    for (Transport t : values()) {
      if (t.word().equals(word)) {
        return t;
      }
    }
    throw new IllegalArgumentException(word + " (expected: " + words() + ")");
  }

  /** The configuration words, for messages: {@code auto, epoll, io_uring or nio}. */
  public static String words() {
    String all = Arrays.stream(values()).map(Transport::word).collect(Collectors.joining(", "));
    int last = all.lastIndexOf(", ");
    return all.substring(0, last) + " or " + all.substring(last + 2);
  }
}
