package io.racs.proxy.s3.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.handler.S3Dispatcher;
import io.racs.proxy.s3.route.S3Router;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.MemoryArray;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A real erasure-coded store (4x2 over memory repositories) with the S3 server settings in front of
 * it, and an {@link EmbeddedChannel} connection harness that runs request handlers on the test
 * thread, so a test steps the connection deterministically: bytes in, handlers run, pending
 * event-loop tasks run, bytes out. The settings also start real servers ({@link S3Server#start}),
 * here and in {@link WireServer}.
 */
final class S3Fixture implements AutoCloseable {
  static final String BUCKET = "bucket";
  final ErasureStore store;
  final S3Server.Settings settings;

  /** A 4x2 array holding {@link #BUCKET}, for requests signed by {@link WireRequests}. */
  S3Fixture() {
    this("4x2", WireRequests.authenticator());
    store.createBucket(BUCKET);
  }

  /** An empty array of {@code geometry}, for requests {@code authenticator} accepts. */
  S3Fixture(String geometry, S3Authenticator authenticator) {
    store = MemoryArray.open(geometry);
    settings =
        new S3Server.Settings(
            "127.0.0.1",
            0,
            S3Router.pathStyle(),
            authenticator,
            ServiceGate.open(new S3Dispatcher(new StoreBridge(store), "us-east-1")),
            null,
            16 * 1024,
            Duration.ofSeconds(30),
            Duration.ofSeconds(5),
            new ServerMetrics(),
            AccessLog.off(),
            Transport.AUTO);
  }

  /** Stores {@code data} under {@code key} directly, bypassing HTTP. */
  void put(String key, byte[] data) {
    store.put(
        BUCKET,
        key,
        new ByteArrayInputStream(data),
        data.length,
        ObjectStore.PutOptions.defaults());
  }

  /** The current bytes of {@code key}. */
  byte[] get(String key) {
    try (ObjectStore.ObjectReader reader = store.get(BUCKET, key, 0, -1, 0)) {
      return reader.body().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] random(long seed, int size) {
    return SeededBytes.bytes(seed, size);
  }

  Connection connect() {
    return new Connection(settings);
  }

  @Override
  public void close() {
    store.close();
  }

  /**
   * One client connection through the real HTTP codec and {@link S3Connection}, with {@code
   * autoRead} off as the server sets it. Counts the reads the connection asks of the socket.
   */
  static final class Connection implements AutoCloseable {
    final EmbeddedChannel channel;
    private final ArrayDeque<Runnable> handlers = new ArrayDeque<>();
    private final List<ByteBuf> sent = new ArrayList<>();
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private int consumed;
    int reads;

    Connection(S3Server.Settings settings) {
      channel =
          new EmbeddedChannel(
              false,
              false,
              new ChannelOutboundHandlerAdapter() {
                @Override
                public void read(ChannelHandlerContext ctx) {
                  reads++;
                  ctx.read();
                }
              },
              new HttpServerCodec(8192, settings.maxHeaderBytes(), 65536),
              new S3Connection(settings, (id, task) -> handlers.add(task)));
      channel.config().setAutoRead(false);
      try {
        channel.register();
      } catch (Exception e) {
        throw new IllegalStateException("cannot register the embedded channel", e);
      }
    }

    /** Delivers {@code bytes} as one socket read. */
    Connection send(byte[] bytes) {
      ByteBuf buf = Unpooled.copiedBuffer(bytes);
      sent.add(buf);
      channel.writeInbound(buf);
      return this;
    }

    Connection send(String text) {
      return send(WireRequests.ascii(text));
    }

    /** Handlers started so far and not yet run. */
    int pendingHandlers() {
      return handlers.size();
    }

    /**
     * Runs every started handler, and the event-loop tasks they leave, until none is left. Each
     * handler runs on its own thread while the test thread waits for it, so the channel still has
     * one user at a time; a handler that waits for body bytes the test never sends fails the test
     * instead of hanging it.
     */
    Connection runHandlers() {
      channel.runPendingTasks();
      while (!handlers.isEmpty()) {
        Thread handler = Thread.ofVirtual().start(handlers.poll());
        try {
          if (!handler.join(Duration.ofSeconds(10))) {
            throw new AssertionError("a handler still waits for its body after 10 s");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted", e);
        }
        channel.runPendingTasks();
      }
      return this;
    }

    /** The next complete response written so far, or null when there is none (yet). */
    WireResponse response() {
      ByteBuf out;
      while ((out = channel.readOutbound()) != null) {
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        out.release();
        received.writeBytes(bytes);
      }
      byte[] all = received.toByteArray();
      ByteArrayInputStream in = new ByteArrayInputStream(all, consumed, all.length - consumed);
      try {
        WireResponse response = WireResponse.read(in);
        consumed = all.length - in.available();
        return response;
      } catch (IOException e) {
        return null; // incomplete so far
      }
    }

    /** True while the connection is open. */
    boolean open() {
      channel.runPendingTasks();
      return channel.isOpen();
    }

    /** Every buffer the test sent was released by the pipeline (no leak, no premature free). */
    boolean allReleased() {
      return sent.stream().allMatch(b -> b.refCnt() == 0);
    }

    @Override
    public void close() {
      channel.finishAndReleaseAll();
    }
  }
}
