package io.racs.proxy.s3.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.route.S3Router;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The S3 HTTP/1.1 server on Netty: keep-alive connections, optional TLS, header and idle limits, an
 * optional access log (one line per request, {@link AccessLogHandler}), and a graceful shutdown
 * that stops accepting, lets requests in flight finish (up to a drain timeout), then closes.
 */
public final class S3Server implements AutoCloseable {
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
      AccessLog accessLog) {
    /** Checks the values. */
    public Settings {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(router, "router");
      Objects.requireNonNull(authenticator, "authenticator");
      Objects.requireNonNull(service, "service");
      Objects.requireNonNull(metrics, "metrics");
      Objects.requireNonNull(accessLog, "accessLog (AccessLog.off() for none)");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port: " + port + " (expected: 0 to 65535)");
      }
    }
  }

  private final Settings settings;
  private final EventLoopGroup boss = new NioEventLoopGroup(1);
  private final EventLoopGroup workers = new NioEventLoopGroup();
  private Channel channel;

  private S3Server(Settings settings) {
    this.settings = settings;
  }

  /** Binds and starts serving. */
  public static S3Server start(Settings settings) throws InterruptedException {
    S3Server server = new S3Server(settings);
    server.bind();
    return server;
  }

  private void bind() throws InterruptedException {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
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
      boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }
}
