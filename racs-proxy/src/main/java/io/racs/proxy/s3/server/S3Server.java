package io.racs.proxy.s3.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.route.S3Router;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The S3 HTTP/1.1 server on Netty: keep-alive connections, optional TLS, header and idle limits, an
 * optional access log (one line per request, {@link AccessLogHandler}), and a graceful shutdown
 * that stops accepting, lets requests in flight finish (up to a drain timeout), then closes. Its
 * event loops run on the configured {@link Transport} ({@link EventLoops}); the one in use is
 * logged at start and shown in {@code /metrics} ({@code racs_s3_transport}).
 */
public final class S3Server implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(S3Server.class);

  /** What the server needs. */
  public record Settings(
      String host,
      int port,
      S3Router router,
      S3Authenticator authenticator,
      ServiceGate service,
      SslContext ssl,
      int maxHeaderBytes,
      Duration idleTimeout,
      Duration drainTimeout,
      ServerMetrics metrics,
      AccessLog accessLog,
      Transport transport) {
    /** Checks the values. */
    public Settings {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(router, "router");
      Objects.requireNonNull(authenticator, "authenticator");
      Objects.requireNonNull(service, "service");
      Objects.requireNonNull(metrics, "metrics");
      Objects.requireNonNull(accessLog, "accessLog (AccessLog.off() for none)");
      Objects.requireNonNull(transport, "transport (Transport.AUTO for the default)");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port: " + port + " (expected: 0 to 65535)");
      }
    }

    /** A copy on another transport. */
    public Settings withTransport(Transport transport) {
      return new Settings(
          host,
          port,
          router,
          authenticator,
          service,
          ssl,
          maxHeaderBytes,
          idleTimeout,
          drainTimeout,
          metrics,
          accessLog,
          transport);
    }
  }

  private final Settings settings;
  private final EventLoops loops;
  private Channel channel;

  private S3Server(Settings settings, EventLoops loops) {
    this.settings = settings;
    this.loops = loops;
  }

  /**
   * Binds and starts serving.
   *
   * @throws IllegalArgumentException when the transport asked for is not available here
   */
  public static S3Server start(Settings settings) throws InterruptedException {
    S3Server server = new S3Server(settings, EventLoops.open(settings.transport()));
    try {
      server.bind();
    } catch (InterruptedException | RuntimeException e) {
      server.loops.close();
      throw e;
    }
    settings.metrics().transport(server.transport());
    LOG.info(
        "S3 server on {} at {} ({} event loops)",
        server.transport().word(),
        server.address(),
        EventLoops.threads());
    return server;
  }

  private void bind() throws InterruptedException {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(loops.group())
            .channel(loops.serverChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.AUTO_READ, false)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(
                ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 << 10, 1 << 20))
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ChannelPipeline p = ch.pipeline();
                    if (settings.ssl() != null) {
                      p.addLast("tls", settings.ssl().newHandler(ch.alloc()));
                    }
                    p.addLast("http", new HttpServerCodec(8192, settings.maxHeaderBytes(), 65536));
                    if (settings.accessLog().enabled()) {
                      p.addLast(
                          "access-log",
                          new AccessLogHandler(settings.accessLog(), settings.router()));
                    }
                    p.addLast(
                        "idle",
                        new IdleStateHandler(
                            0, 0, settings.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
                    p.addLast("s3", new S3Connection(settings));
                  }
                });
    channel = bootstrap.bind(settings.host(), settings.port()).sync().channel();
  }

  /** The transport the event loops run on (never {@link Transport#AUTO}). */
  public Transport transport() {
    return loops.transport();
  }

  /** The port bound (useful when 0 asked for a free one). */
  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** The address bound. */
  public InetSocketAddress address() {
    return (InetSocketAddress) channel.localAddress();
  }

  /** Stops accepting, waits for requests in flight, then closes every connection. */
  @Override
  public void close() {
    try {
      channel.close().sync();
      settings.metrics().awaitIdle(System.nanoTime() + settings.drainTimeout().toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      loops.close();
    }
  }
}
