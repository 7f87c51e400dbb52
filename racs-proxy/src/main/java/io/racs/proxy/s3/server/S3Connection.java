package io.racs.proxy.s3.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.racs.proxy.s3.authz.Access;
import io.racs.proxy.s3.bridge.StoreErrors;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.handler.S3Dispatcher;
import io.racs.proxy.s3.handler.S3Request;
import io.racs.proxy.s3.handler.S3Response;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.proxy.s3.route.S3Route;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One client connection: reads a request head on the event loop, checks its route and signature
 * there (the final error at once when they do not pass), then runs the handler on a virtual thread
 * while the body streams in with backpressure ({@code autoRead} is off; more is read only as the
 * handler consumes it), and writes the response, streaming object bodies no faster than the socket
 * drains. One request at a time per connection: the next head is read only after the response is
 * written, and a request that arrives earlier (a pipelining client, or bytes read together with the
 * previous body) waits in {@link #deferred} until then. Without that wait its response could be
 * written while the previous one is still being encoded, and the two would interleave on the wire.
 * What a head must pass is {@link RequestGate}'s to check, and how a response goes on the wire
 * {@link ResponseWriter}'s; this class keeps the order of exchanges on the connection.
 *
 * <p>{@code Expect: 100-continue}: the {@code 100 Continue} is sent, and the body read, only when
 * the handler first reads the body ({@link RequestBody#askOnFirstRead}), so whatever refuses the
 * request before that (the policy decision, a missing bucket, a bad argument) is answered with its
 * final status and the client never sends the body, as S3 and MinIO do. Such an answer closes the
 * connection (see {@link #write}). A request without the expectation has its body read from the
 * start, as before, so a client that sends it at once is not slowed down.
 */
final class S3Connection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(S3Connection.class);

  /**
   * How much of a body the connection still reads, and throws away, after answering its request
   * without reading it all (a write refused once the body had started: 503 with repositories out,
   * say), before it closes: a client that writes its whole body before it reads (most do) would
   * otherwise fail with a broken pipe or a reset and never see the answer. Bodies past this, and
   * clients slower than {@link #LINGER_SECONDS}, get the close.
   */
  static final long LINGER_BYTES = 16L << 20;

  static final int LINGER_SECONDS = 10;

  private final S3Server.Settings settings;
  private final HandlerStarter handlers;
  private final RequestGate gate;
  private final ResponseWriter responses = new ResponseWriter();
  private ChannelHandlerContext ctx;
  private Exchange current;
  private boolean discardingBody;
  // After a response that closes the connection while its body is still arriving: how many more
  // body bytes are read and thrown away before the close; negative when not lingering.
  private long lingerBytesLeft = -1;
  // Messages of requests that arrived before the current response was written, in order.
  private final ArrayDeque<Object> deferred = new ArrayDeque<>();

  /** Starts the handler of each request. */
  @FunctionalInterface
  interface HandlerStarter {
    /** Runs {@code task}, which may block (it reads the body), off the event loop. */
    void start(String requestId, Runnable task);
  }

  /** A connection whose handlers each run on a new virtual thread. */
  S3Connection(S3Server.Settings settings) {
    this(settings, (id, task) -> Thread.ofVirtual().name("s3-" + id).start(task));
  }

  /** A connection whose handlers {@code handlers} starts (tests run them on their own thread). */
  S3Connection(S3Server.Settings settings, HandlerStarter handlers) {
    this.settings = settings;
    this.handlers = handlers;
    this.gate = new RequestGate(settings);
  }

  /** The request being served on this connection. */
  private final class Exchange {
    final String id = requestId();
    final long startNanos = System.nanoTime();
    final HttpRequest request;
    final boolean head;
    final boolean bodyExpected;
    RequestBody body;
    // Event loop only: the client waits for 100 Continue, not sent yet, before sending its body.
    boolean continuePending;
    // Event loop only: answered from its head alone (well framed), its body unread.
    boolean refusedAtHead;
    // Event loop only: the body's last content arrived.
    boolean bodyEnded;
    String operation = "Unknown";
    volatile boolean done;

    Exchange(HttpRequest request) {
      this.request = request;
      this.head = request.method().equals(HttpMethod.HEAD);
      this.bodyExpected = bodyExpected(request);
    }
  }

  /**
   * Whether body bytes may follow the head. A {@code Content-Length} that is not a number counts as
   * a body of unknown size: such a request is refused and its connection closed, and the check must
   * not throw before the refusal is written.
   */
  private static boolean bodyExpected(HttpRequest request) {
    if (HttpUtil.isTransferEncodingChunked(request)) {
      return true;
    }
    String length = request.headers().get(HttpHeaderNames.CONTENT_LENGTH);
    if (length == null) {
      return false;
    }
    try {
      return Long.parseLong(length.strip()) != 0;
    } catch (NumberFormatException e) {
      return true;
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    ctx.read();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!deferred.isEmpty() || (msg instanceof HttpRequest && current != null)) {
      deferred.add(msg); // released when replayed or when the connection closes
      return;
    }
    process(ctx, msg);
  }

  /** Replays deferred messages until one must wait for the exchange that started meanwhile. */
  private void replayDeferred() {
    while (!deferred.isEmpty()) {
      if (deferred.peekFirst() instanceof HttpRequest && current != null) {
        return;
      }
      process(ctx, deferred.pollFirst());
    }
  }

  private void process(ChannelHandlerContext ctx, Object msg) {
    try {
      if (msg instanceof HttpRequest request) {
        begin(request);
        if (request.decoderResult().isFailure()) {
          return; // answered by begin; the decoder discards the rest of the connection's bytes
        }
      }
      if (msg instanceof HttpContent content) {
        boolean last = content instanceof LastHttpContent;
        Exchange exchange = current;
        if (last && exchange != null) {
          exchange.bodyEnded = true;
        }
        if (content.decoderResult().isFailure()) {
          malformedBody(exchange);
        } else if (exchange != null && exchange.body != null && !discardingBody) {
          boolean more = exchange.body.offer(content.content().retain(), last);
          if (more && !exchange.continuePending) {
            ctx.read();
          }
        } else if (lingerBytesLeft >= 0) {
          lingerBytesLeft -= content.content().readableBytes();
          if (last || lingerBytesLeft < 0) {
            lingerBytesLeft = -1;
            ctx.close();
          } else {
            ctx.read();
          }
        } else if (!last) {
          ctx.read(); // a body we answered already: drain it to reach the next request
        }
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  /**
   * The HTTP decoder could not frame the body (a malformed chunk size or delimiter, bad trailers):
   * it ends the content with a failed {@link LastHttpContent} and discards every later byte. The
   * body must not look complete to the handler, or the store would commit what arrived before the
   * break: it fails instead, so the handler answers {@code IncompleteBody}. The body never ended,
   * so the response closes the connection. No more is read: nothing after the break can be framed.
   */
  private void malformedBody(Exchange exchange) {
    discardingBody = true;
    if (exchange != null && exchange.body != null) {
      exchange.body.fail(
          S3Exception.of(
              S3ErrorCode.INCOMPLETE_BODY,
              "The request body's chunked transfer encoding is malformed; nothing was stored."));
    }
  }

  private void begin(HttpRequest request) {
    Exchange exchange = new Exchange(request);
    current = exchange;
    ctx.channel().attr(AccessLogHandler.USER).set(null);
    discardingBody = false;
    settings.metrics().started();
    if (request.decoderResult().isFailure()) {
      respondAtOnce(exchange, RequestGate.malformedHead(request));
      return;
    }
    Headers.Builder headers = Headers.builder();
    request.headers().forEach(h -> headers.add(h.getKey(), h.getValue()));
    RequestGate.Admitted admitted;
    try {
      RequestHead head = RequestHead.of(request.method().name(), request.uri(), headers.build());
      S3Route route = gate.route(head);
      exchange.operation = route.operation().name();
      admitted =
          gate.admit(
              head,
              route,
              exchange.bodyExpected,
              () -> ctx.channel().eventLoop().execute(ctx::read));
      exchange.body = admitted.body();
    } catch (S3Exception e) {
      respondAtOnce(exchange, e);
      return;
    } catch (RuntimeException e) {
      respondAtOnce(exchange, S3Exception.of(S3ErrorCode.INVALID_REQUEST, "Malformed request"));
      return;
    }
    // Without a body there is nothing to continue with: the final status is the answer (RFC 9110
    // section 10.1.1 lets a server omit the 100 when the framing says there is no content).
    exchange.continuePending = exchange.bodyExpected && HttpUtil.is100ContinueExpected(request);
    if (exchange.continuePending) {
      exchange.body.askOnFirstRead(() -> onEventLoop(() -> sendContinue(exchange)));
    }
    S3Request s3 =
        new S3Request(
            exchange.id,
            admitted.head(),
            admitted.route(),
            admitted.auth(),
            exchange.body,
            admitted.length(),
            settings.ssl() != null,
            sourceIp(),
            null);
    handlers.start(exchange.id, () -> serve(exchange, s3));
    if (exchange.bodyExpected && !exchange.continuePending) {
      ctx.read(); // a body-less request's end came with its head; the next head waits
    }
  }

  /**
   * On the event loop, once the handler of {@code exchange} first reads its body: tells the client
   * to send it and starts reading it. Nothing when the exchange was answered or abandoned
   * meanwhile.
   */
  private void sendContinue(Exchange exchange) {
    if (current != exchange || exchange.done || !exchange.continuePending || discardingBody) {
      return;
    }
    exchange.continuePending = false;
    ctx.writeAndFlush(
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
    if (!exchange.body.fullyReceived()) {
      ctx.read();
    }
  }

  /** Runs {@code task} on the event loop: at once when called there, else as a task. */
  private void onEventLoop(Runnable task) {
    if (ctx.executor().inEventLoop()) {
      task.run();
    } else {
      ctx.executor().execute(task);
    }
  }

  /** Runs on the request's virtual thread. */
  private void serve(Exchange exchange, S3Request request) {
    MDC.put("requestId", exchange.id);
    S3Response response;
    try {
      S3Dispatcher dispatcher = settings.service().dispatcher();
      Access access = dispatcher.identify(request);
      ctx.channel().attr(AccessLogHandler.USER).set(access.user());
      response =
          dispatcher.handle(
              request.withAccess(
                  access, user -> ctx.channel().attr(AccessLogHandler.USER).set(user)));
    } catch (S3Exception e) {
      response = error(exchange, e);
    } catch (IOException e) {
      response = error(exchange, StoreErrors.translate(e, request.route().resource()));
    } catch (RuntimeException e) {
      S3Exception translated = StoreErrors.translate(e, request.route().resource());
      if (translated.code() == S3ErrorCode.INTERNAL_ERROR) {
        LOG.error("request {} {} failed", exchange.id, exchange.operation, e);
      }
      response = error(exchange, translated);
    } finally {
      MDC.remove("requestId");
    }
    write(exchange, response);
  }

  private static S3Response error(Exchange exchange, S3Exception e) {
    return ResponseWriter.error(e, exchange.id, exchange.head);
  }

  /**
   * Answers a request whose head failed; its body, if any, is not read: the connection closes,
   * after draining the body a client sends without waiting for 100 Continue ({@link #lingers}).
   */
  private void respondAtOnce(Exchange exchange, S3Exception e) {
    discardingBody = true;
    // A client that sent Expect: 100-continue sends no body after an error: nothing to drain.
    exchange.refusedAtHead =
        !exchange.request.decoderResult().isFailure()
            && !HttpUtil.is100ContinueExpected(exchange.request);
    if (exchange.bodyExpected) {
      exchange.body = null;
    }
    write(exchange, error(exchange, e));
  }

  /**
   * Writes a response (from any thread); streams bodies with backpressure. The connection is kept
   * only when the request's body has wholly arrived: after an answer given before that, the next
   * bytes on the wire may be the rest of the body or the next request. That includes a request
   * answered before its handler asked for the body it expected {@code 100 Continue} for: a client
   * that honours the expectation never sends the body, one whose wait for the 100 ran out sends it
   * all, so neither discarding "the declared length" nor reading the next head would be safe (RFC
   * 9110 section 10.1.1; Go's net/http closes such connections for the same reason). The answer
   * says {@code Connection: close}, and the connection lingers to drain what body comes ({@link
   * #lingers}) so a client writing it still reads the answer.
   */
  private void write(Exchange exchange, S3Response response) {
    boolean keepAlive =
        HttpUtil.isKeepAlive(exchange.request)
            && !discardingBody
            && (!exchange.bodyExpected || (exchange.body != null && exchange.body.fullyReceived()));
    if (discardingBody) {
      keepAlive = false;
    }
    HttpResponse http = ResponseWriter.head(response, exchange.id, exchange.head, keepAlive);
    long sent = 0;
    boolean ok = true;
    try {
      sent = responses.send(ctx, http, response, exchange.head);
    } catch (IOException | RuntimeException e) {
      ok = false;
      LOG.debug("request {}: response stream failed, closing: {}", exchange.id, e.toString());
    } finally {
      response.onClose().run();
    }
    boolean keep = ok && keepAlive;
    boolean answered = ok;
    long received = exchange.body != null ? exchange.body.decodedBytes() : 0;
    settings
        .metrics()
        .finished(
            exchange.operation,
            response.status(),
            received,
            sent,
            System.nanoTime() - exchange.startNanos);
    if (LOG.isDebugEnabled()) {
      String path = exchange.request.uri();
      int q = path.indexOf('?');
      LOG.debug(
          "{} {} {} {} {} bytes {} ms",
          exchange.id,
          exchange.request.method(),
          q < 0 ? path : path.substring(0, q), // the query may carry a presigned signature
          response.status(),
          sent,
          (System.nanoTime() - exchange.startNanos) / 1_000_000);
    }
    ctx.channel()
        .eventLoop()
        .execute(
            () -> {
              exchange.done = true;
              if (exchange.body != null) {
                exchange.body.close();
              }
              if (current == exchange) {
                current = null;
              }
              if (keep) {
                replayDeferred();
                if (current == null) {
                  ctx.read();
                }
              } else if (answered && lingers(exchange)) {
                lingerBytesLeft = LINGER_BYTES;
                ctx.flush();
                ctx.executor().schedule(() -> ctx.close(), LINGER_SECONDS, TimeUnit.SECONDS);
                ctx.read();
              } else {
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
              }
            });
  }

  /**
   * Whether the connection, closing after {@code exchange}'s response, first reads the rest of the
   * request's body (see {@link #LINGER_BYTES}): only when the body may still arrive, well framed.
   * That includes a head refused before any body was read (an unknown operation, a bad signature):
   * a client without {@code Expect: 100-continue} is sending it, and one with it sends none, so the
   * drain only waits out {@link #LINGER_SECONDS}. A request answered before its handler asked for
   * the body it expected a 100 for lingers too: its client may have stopped waiting for the 100 and
   * be sending the body.
   */
  private boolean lingers(Exchange exchange) {
    if (exchange.refusedAtHead) {
      // Its client may be sending the body with no 100 to wait for: closing with it unread would
      // reset the connection under the answer (over TLS the client then reads only an EOF).
      return exchange.bodyExpected && !exchange.bodyEnded && deferred.isEmpty();
    }
    return !discardingBody
        && exchange.bodyExpected
        && exchange.body != null
        && !exchange.body.fullyReceived()
        && deferred.isEmpty();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    responses.writabilityChanged();
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    for (Object msg : deferred) {
      ReferenceCountUtil.release(msg);
    }
    deferred.clear();
    Exchange exchange = current;
    if (exchange != null && exchange.body != null && !exchange.done) {
      exchange.body.fail(RequestBody.incomplete());
    }
    responses.writabilityChanged();
    ctx.fireChannelInactive();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof IdleStateEvent) {
      ctx.close();
    } else {
      ctx.fireUserEventTriggered(event);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("connection error, closing: {}", cause.toString());
    ctx.close();
  }

  /** The client's address without its port, or null when the channel has none. */
  private String sourceIp() {
    return ctx.channel().remoteAddress() instanceof InetSocketAddress a
        ? a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString()
        : null;
  }

  static String requestId() {
    return HexFormat.of().withUpperCase().toHexDigits(ThreadLocalRandom.current().nextLong());
  }
}
