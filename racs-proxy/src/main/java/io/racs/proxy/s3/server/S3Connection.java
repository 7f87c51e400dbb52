package io.racs.proxy.s3.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
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
import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.bridge.ChunkedStream;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.checksum.ChecksumSpec;
import io.racs.proxy.s3.checksum.ChecksumVerifier;
import io.racs.proxy.s3.chunked.BodyDecoders;
import io.racs.proxy.s3.chunked.ChunkedLimits;
import io.racs.proxy.s3.chunked.PlainBodyDecoder;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.handler.S3Request;
import io.racs.proxy.s3.handler.S3Response;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.proxy.s3.route.S3Operation;
import io.racs.proxy.s3.route.S3Route;
import io.racs.proxy.s3.xml.ErrorXml;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One client connection: reads a request head on the event loop, checks its route and signature
 * there (answering {@code 100 Continue} only after both pass, and the final error at once when they
 * do not), then runs the handler on a virtual thread while the body streams in with backpressure
 * ({@code autoRead} is off; more is read only as the handler consumes it), and writes the response,
 * streaming object bodies no faster than the socket drains. One request at a time per connection:
 * the next head is read only after the response is written, and a request that arrives earlier (a
 * pipelining client, or bytes read together with the previous body) waits in {@link #deferred}
 * until then. Without that wait its response could be written while the previous one is still being
 * encoded, and the two would interleave on the wire.
 */
final class S3Connection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(S3Connection.class);
  private static final int CHUNK_BYTES = 64 * 1024;
  private static final Set<S3Operation> VERIFIED_BODIES =
      EnumSet.of(
          S3Operation.PUT_OBJECT,
          S3Operation.UPLOAD_PART,
          S3Operation.DELETE_OBJECTS,
          S3Operation.PUT_BUCKET_CORS,
          S3Operation.COMPLETE_MULTIPART_UPLOAD,
          S3Operation.CREATE_BUCKET,
          S3Operation.PUT_BUCKET_VERSIONING);

  /** The most a single PUT may store, and the most one part may hold: 5 GiB, as in S3. */
  static final long MAX_UPLOAD_BYTES = 5L << 30;

  /**
   * How much of a body the connection still reads, and throws away, after answering its request
   * without reading it all (a write refused once the body had started: 503 with repositories out,
   * say), before it closes: a client that writes its whole body before it reads (most do) would
   * otherwise fail with a broken pipe or a reset and never see the answer. Bodies past this, and
   * clients slower than {@link #LINGER_SECONDS}, get the close.
   */
  static final long LINGER_BYTES = 16L << 20;

  static final int LINGER_SECONDS = 10;

  private static final Set<S3Operation> SIZE_LIMITED =
      EnumSet.of(S3Operation.PUT_OBJECT, S3Operation.UPLOAD_PART);

  private final S3Server.Settings settings;
  private final HandlerStarter handlers;
  private final ReentrantLock writability = new ReentrantLock();
  private final Condition writable = writability.newCondition();
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
  }

  /** The request being served on this connection. */
  private final class Exchange {
    final String id = requestId();
    final long startNanos = System.nanoTime();
    final HttpRequest request;
    final boolean head;
    final boolean bodyExpected;
    RequestBody body;
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
        if (content.decoderResult().isFailure()) {
          malformedBody(exchange);
        } else if (exchange != null && exchange.body != null && !discardingBody) {
          boolean more = exchange.body.offer(content.content().retain(), last);
          if (more) {
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
    discardingBody = false;
    settings.metrics().started();
    if (request.decoderResult().isFailure()) {
      respondAtOnce(exchange, malformedHead(request));
      return;
    }
    Headers.Builder headers = Headers.builder();
    request.headers().forEach(h -> headers.add(h.getKey(), h.getValue()));
    RequestHead head;
    S3Route route;
    Authentication auth;
    ChecksumVerifier verifier = null;
    long length;
    try {
      head = RequestHead.of(request.method().name(), request.uri(), headers.build());
      try {
        route = settings.router().route(head);
      } catch (S3Exception e) {
        if (e.code() == S3ErrorCode.NOT_IMPLEMENTED) {
          // Who is asking comes first: an unsigned request for an unsupported feature is a 403.
          settings.authenticator().authenticate(head, null);
        }
        throw e;
      }
      exchange.operation = route.operation().name();
      if (route.operation() == S3Operation.POST_OBJECT) {
        // A form upload is signed inside its body (the policy); the handler checks it before
        // storing anything.
        auth = null;
      } else if (route.operation() == S3Operation.PREFLIGHT_CORS) {
        // Browsers never sign a preflight; its answer is the CORS decision and nothing else.
        if (exchange.bodyExpected) {
          throw S3Exception.of(S3ErrorCode.INVALID_REQUEST, "A CORS preflight has no body.");
        }
        auth = null;
      } else {
        auth =
            settings
                .authenticator()
                .authenticate(head, route.virtualHost() ? route.bucket() : null);
      }
      if (VERIFIED_BODIES.contains(route.operation())) {
        // A completion's x-amz-checksum-* headers are the object's, not its XML body's.
        verifier =
            ChecksumVerifier.create(
                route.operation() == S3Operation.COMPLETE_MULTIPART_UPLOAD
                    ? ChecksumSpec.forCompletion(head.headers())
                    : ChecksumSpec.fromHeaders(head.headers()));
      }
      // Everything that can refuse the request is checked before 100 Continue, so a client told
      // to send its body is never refused for what its head already said.
      length = contentLength(head.headers());
      long maxBytes = Long.MAX_VALUE;
      if (SIZE_LIMITED.contains(route.operation())) {
        maxBytes = MAX_UPLOAD_BYTES;
        if (length > MAX_UPLOAD_BYTES) {
          throw entityTooLarge(length);
        }
      }
      Authentication authenticated = auth;
      exchange.body =
          new RequestBody(
              sink ->
                  authenticated == null
                      // A preflight (refused with a body) or a form upload (signed inside).
                      ? PlainBodyDecoder.unsigned(length(head.headers()), sink)
                      : BodyDecoders.forRequest(
                          head.headers(), authenticated, sink, ChunkedLimits.DEFAULT),
              verifier,
              () -> ctx.channel().eventLoop().execute(ctx::read),
              maxBytes);
    } catch (S3Exception e) {
      respondAtOnce(exchange, e);
      return;
    } catch (RuntimeException e) {
      respondAtOnce(exchange, S3Exception.of(S3ErrorCode.INVALID_REQUEST, "Malformed request"));
      return;
    }
    if (HttpUtil.is100ContinueExpected(request)) {
      ctx.writeAndFlush(
          new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
    }
    S3Request s3 =
        new S3Request(
            exchange.id, head, route, auth, exchange.body, length, settings.ssl() != null);
    handlers.start(exchange.id, () -> serve(exchange, s3));
    if (exchange.bodyExpected) {
      ctx.read(); // a body-less request's end came with its head; the next head waits
    }
  }

  /** The {@code Content-Length} of a request without SigV4, or -1. */
  private static long length(Headers headers) {
    String length = headers.get("content-length");
    return length == null ? -1 : BodyDecoders.parseLength("Content-Length", length);
  }

  /**
   * The payload length the head declares: {@code x-amz-decoded-content-length} when present (the
   * payload of an aws-chunked body), else {@code Content-Length} unless the body is aws-chunked; -1
   * when neither says.
   */
  private static long contentLength(Headers headers) {
    String decoded = headers.get("x-amz-decoded-content-length");
    if (decoded != null) {
      return BodyDecoders.parseLength("x-amz-decoded-content-length", decoded);
    }
    String sha = headers.get("x-amz-content-sha256");
    if (sha != null && sha.startsWith("STREAMING-")) {
      return -1;
    }
    String length = headers.get("content-length");
    return length == null ? -1 : BodyDecoders.parseLength("Content-Length", length);
  }

  static S3Exception entityTooLarge(long proposedBytes) {
    return S3Exception.of(S3ErrorCode.ENTITY_TOO_LARGE)
        .withDetail("ProposedSize", Long.toString(proposedBytes))
        .withDetail("MaxSizeAllowed", Long.toString(MAX_UPLOAD_BYTES));
  }

  /**
   * The error for a head the HTTP decoder refused. An unusable {@code Content-Length} (not a
   * number, negative, beyond 2^63, or several different values) is named, since it is the client's
   * most likely mistake; anything else is a malformed request.
   */
  private static S3Exception malformedHead(HttpRequest request) {
    Throwable cause = request.decoderResult().cause();
    if (cause instanceof TooLongFrameException) {
      return S3Exception.of(S3ErrorCode.INVALID_REQUEST, "Request header or line too long");
    }
    List<String> lengths = request.headers().getAll(HttpHeaderNames.CONTENT_LENGTH);
    if (!lengths.isEmpty()) {
      String joined = String.join(", ", lengths);
      try {
        long first = -1;
        for (String value : lengths) {
          for (String part : value.split(",", -1)) {
            long n = BodyDecoders.parseLength("Content-Length", part);
            if (first >= 0 && n != first) {
              throw BodyDecoders.invalidLength("Content-Length", joined);
            }
            first = n;
          }
        }
      } catch (S3Exception e) {
        return BodyDecoders.invalidLength("Content-Length", joined);
      }
    }
    return S3Exception.of(S3ErrorCode.INVALID_REQUEST, "Malformed HTTP request");
  }

  /** Runs on the request's virtual thread. */
  private void serve(Exchange exchange, S3Request request) {
    MDC.put("requestId", exchange.id);
    S3Response response;
    try {
      response = settings.dispatcher().handle(request);
    } catch (S3Exception e) {
      response = error(exchange, e);
    } catch (IOException e) {
      response = error(exchange, StoreBridge.translate(e, request.route().resource()));
    } catch (RuntimeException e) {
      S3Exception translated = StoreBridge.translate(e, request.route().resource());
      if (translated.code() == S3ErrorCode.INTERNAL_ERROR) {
        LOG.error("request {} {} failed", exchange.id, exchange.operation, e);
      }
      response = error(exchange, translated);
    } finally {
      MDC.remove("requestId");
    }
    write(exchange, response);
  }

  private S3Response error(Exchange exchange, S3Exception e) {
    S3Response response = S3Response.status(e.httpStatus());
    e.headers().forEach(response::header);
    if (e.code().hasBody() && !exchange.head) {
      response.header("Content-Type", "application/xml").body(ErrorXml.render(e, exchange.id));
    }
    if (e.code() == S3ErrorCode.SERVICE_UNAVAILABLE || e.code() == S3ErrorCode.SLOW_DOWN) {
      response.header("Retry-After", "1");
    }
    return response;
  }

  /** Answers a request whose head failed; its body, if any, is not read: the connection closes. */
  private void respondAtOnce(Exchange exchange, S3Exception e) {
    discardingBody = true;
    if (exchange.bodyExpected) {
      exchange.body = null;
    }
    write(exchange, error(exchange, e));
  }

  private HttpResponse head(Exchange exchange, S3Response response, boolean keepAlive) {
    HttpResponseStatus status = HttpResponseStatus.valueOf(response.status());
    HttpResponse http =
        response.stream() == null && !exchange.head
            ? new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(response.bytes()))
            : new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
    for (Map.Entry<String, String> header : response.headers()) {
      http.headers().add(header.getKey(), header.getValue());
    }
    http.headers()
        .set("x-amz-request-id", exchange.id)
        .set("x-amz-id-2", exchange.id)
        .set(HttpHeaderNames.SERVER, "RACS")
        .set(
            HttpHeaderNames.DATE,
            DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(java.time.ZoneOffset.UTC)));
    if (response.status() != 304 && response.status() != 204) {
      HttpUtil.setContentLength(http, response.contentLength());
    }
    HttpUtil.setKeepAlive(http, keepAlive);
    return http;
  }

  /** Writes a response (from any thread); streams bodies with backpressure. */
  private void write(Exchange exchange, S3Response response) {
    boolean keepAlive =
        HttpUtil.isKeepAlive(exchange.request)
            && !discardingBody
            && (!exchange.bodyExpected || (exchange.body != null && exchange.body.fullyReceived()));
    if (discardingBody) {
      keepAlive = false;
    }
    HttpResponse http = head(exchange, response, keepAlive);
    long sent = 0;
    boolean ok = true;
    try {
      if (http instanceof FullHttpResponse) {
        sent = response.bytes().length;
        ctx.writeAndFlush(http);
      } else {
        ctx.writeAndFlush(http);
        if (!exchange.head && response.stream() != null) {
          sent = stream(response.stream());
        }
        ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
      }
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
   * request's body (see {@link #LINGER_BYTES}): only when the body is still arriving, well framed,
   * and not refused at its head (a head refused is answered before any body is read, and a client
   * that sent {@code Expect: 100-continue} sends none).
   */
  private boolean lingers(Exchange exchange) {
    return !discardingBody
        && exchange.bodyExpected
        && exchange.body != null
        && !exchange.body.fullyReceived()
        && deferred.isEmpty();
  }

  private long stream(InputStream body) throws IOException {
    if (body instanceof ChunkedStream chunks) {
      return stream(chunks);
    }
    long sent = 0;
    while (true) {
      // A fresh array per chunk: Netty keeps it until written, so no second copy is needed.
      byte[] buffer = new byte[CHUNK_BYTES];
      int n = body.readNBytes(buffer, 0, buffer.length);
      if (n <= 0) {
        return sent;
      }
      awaitWritable();
      if (!ctx.channel().isActive()) {
        throw new IOException("client closed the connection");
      }
      ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(buffer, 0, n)));
      sent += n;
      if (n < buffer.length) {
        return sent;
      }
    }
  }

  /** Writes the store's pieces as they are: they are the caller's to keep, so no copy. */
  private long stream(ChunkedStream chunks) throws IOException {
    long sent = 0;
    for (ChunkedStream.Chunk chunk = chunks.nextChunk();
        chunk != null;
        chunk = chunks.nextChunk()) {
      awaitWritable();
      if (!ctx.channel().isActive()) {
        throw new IOException("client closed the connection");
      }
      ctx.writeAndFlush(
          new DefaultHttpContent(
              Unpooled.wrappedBuffer(chunk.array(), chunk.offset(), chunk.length())));
      sent += chunk.length();
    }
    return sent;
  }

  private void awaitWritable() {
    writability.lock();
    try {
      while (!ctx.channel().isWritable() && ctx.channel().isActive()) {
        writable.await(1, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      writability.unlock();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    writability.lock();
    try {
      writable.signalAll();
    } finally {
      writability.unlock();
    }
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
    writability.lock();
    try {
      writable.signalAll();
    } finally {
      writability.unlock();
    }
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

  static String requestId() {
    return HexFormat.of().withUpperCase().toHexDigits(ThreadLocalRandom.current().nextLong());
  }
}
