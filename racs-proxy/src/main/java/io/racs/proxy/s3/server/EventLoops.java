package io.racs.proxy.s3.server;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The S3 server's event loops on one {@link Transport}, and the server channel type that goes with
 * them. The one place that turns a configured transport into Netty's: {@link Transport#AUTO}
 * becomes epoll where its native library loads, else NIO; a native transport asked for by name that
 * this machine cannot load is refused with Netty's reason, in one line.
 *
 * <p>One group serves both accepting and the connections, with one event loop per core (Netty's
 * default is two per core, plus a separate acceptor). The event loops only frame HTTP, check
 * signatures and move buffers; the work a request does (the store: hashing, erasure coding,
 * repository I/O) runs on virtual threads, whose scheduler also has one carrier per core. With
 * twice as many event loops as carriers, a saturated machine would hand the socket side two thirds
 * of the CPU time and starve the store that has to produce or consume the bytes; one each keeps the
 * two sides even, and neither blocks the other (an event loop never waits for the store: {@link
 * S3Connection} hands each request to its virtual thread and only queues body bytes).
 */
final class EventLoops implements AutoCloseable {
  private final Transport transport;
  private final EventLoopGroup group;
  private final Class<? extends ServerChannel> serverChannel;

  private EventLoops(
      Transport transport, IoHandlerFactory handlers, Class<? extends ServerChannel> channel) {
    this.transport = transport;
    this.serverChannel = channel;
    this.group =
        new MultiThreadIoEventLoopGroup(
            threads(), new DefaultThreadFactory("s3-" + transport.word(), true), handlers);
  }

  /**
   * Event loops on {@code asked} (resolved: never {@link Transport#AUTO}).
   *
   * @throws IllegalArgumentException when a native transport asked for by name is not available
   */
  static EventLoops open(Transport asked) {
    Transport transport = resolve(asked);
    return switch (transport) {
      case EPOLL ->
          new EventLoops(transport, EpollIoHandler.newFactory(), EpollServerSocketChannel.class);
      case IO_URING ->
          new EventLoops(
              transport, IoUringIoHandler.newFactory(), IoUringServerSocketChannel.class);
      case NIO, AUTO ->
          new EventLoops(Transport.NIO, NioIoHandler.newFactory(), NioServerSocketChannel.class);
    };
  }

  /**
   * The transport {@code asked} comes to on this machine: {@link Transport#AUTO} to epoll when it
   * is available, else NIO; the others as they are when available.
   *
   * @throws IllegalArgumentException when {@code asked} is a native transport this machine cannot
   *     run, naming Netty's reason
   */
  static Transport resolve(Transport asked) {
    return switch (asked) {
      case AUTO -> Epoll.isAvailable() ? Transport.EPOLL : Transport.NIO;
      case EPOLL -> require(asked, Epoll.isAvailable(), Epoll.unavailabilityCause());
      case IO_URING -> require(asked, IoUring.isAvailable(), IoUring.unavailabilityCause());
      case NIO -> Transport.NIO;
    };
  }

  /** Whether this machine can run {@code transport} ({@link Transport#AUTO} and NIO always). */
  static boolean available(Transport transport) {
    return switch (transport) {
      case AUTO, NIO -> true;
      case EPOLL -> Epoll.isAvailable();
      case IO_URING -> IoUring.isAvailable();
    };
  }

  private static Transport require(Transport asked, boolean available, Throwable cause) {
    if (!available) {
      throw new IllegalArgumentException(
          "transport: "
              + asked.word()
              + " is not available on this machine ("
              + firstLine(cause)
              + ") (expected: one it has: "
              + availableWords()
              + ")");
    }
    return asked;
  }

  private static String availableWords() {
    return java.util.Arrays.stream(Transport.values())
        .filter(EventLoops::available)
        .map(Transport::word)
        .collect(java.util.stream.Collectors.joining(", "));
  }

  private static String firstLine(Throwable cause) {
    if (cause == null) {
      return "no reason given";
    }
    String text = cause.getMessage() != null ? cause.getMessage() : cause.toString();
    int newline = text.indexOf('\n');
    return (newline < 0 ? text : text.substring(0, newline)).strip();
  }

  /** One event loop per core (see the class comment). */
  static int threads() {
    return Runtime.getRuntime().availableProcessors();
  }

  /** The transport in use (never {@link Transport#AUTO}). */
  Transport transport() {
    return transport;
  }

  EventLoopGroup group() {
    return group;
  }

  Class<? extends ServerChannel> serverChannel() {
    return serverChannel;
  }

  /** Stops the event loops, at once: the server drained its requests before. */
  @Override
  public void close() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }
}
