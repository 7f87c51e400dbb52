package io.racs.proxy.s3.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.racs.proxy.s3.bridge.ChunkedStream;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.handler.S3Response;
import io.racs.proxy.s3.xml.ErrorXml;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes the responses of one connection: an S3 error as S3 renders it, the head with the request
 * id and the date, then the body, streamed no faster than the socket drains. A handler's virtual
 * thread blocks in {@link #send} while the channel is not writable, and is woken by {@link
 * #writabilityChanged} (or the connection's end), so a slow client holds back the store instead of
 * filling memory.
 */
final class ResponseWriter {
  private static final int CHUNK_BYTES = 64 * 1024;

  private final ReentrantLock writability = new ReentrantLock();
  private final Condition writable = writability.newCondition();

  /** The response to {@code e}: its status and headers, the error XML unless it is a HEAD's. */
  static S3Response error(S3Exception e, String requestId, boolean headRequest) {
    S3Response response = S3Response.status(e.httpStatus());
    e.headers().forEach(response::header);
    if (e.code().hasBody() && !headRequest) {
      response.header("Content-Type", "application/xml").body(ErrorXml.render(e, requestId));
    }
    if (e.code() == S3ErrorCode.SERVICE_UNAVAILABLE || e.code() == S3ErrorCode.SLOW_DOWN) {
      response.header("Retry-After", "1");
    }
    return response;
  }

  /** The HTTP head of {@code response}, whole with its bytes when it does not stream. */
  static HttpResponse head(
      S3Response response, String requestId, boolean headRequest, boolean keepAlive) {
    HttpResponseStatus status = HttpResponseStatus.valueOf(response.status());
    HttpResponse http =
        response.stream() == null && !headRequest
            ? new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(response.bytes()))
            : new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
    for (Map.Entry<String, String> header : response.headers()) {
      http.headers().add(header.getKey(), header.getValue());
    }
    http.headers()
        .set("x-amz-request-id", requestId)
        .set("x-amz-id-2", requestId)
        .set(HttpHeaderNames.SERVER, "RACS")
        .set(
            HttpHeaderNames.DATE,
            DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)));
    if (response.status() != 304 && response.status() != 204) {
      HttpUtil.setContentLength(http, response.contentLength());
    }
    HttpUtil.setKeepAlive(http, keepAlive);
    return http;
  }

  /**
   * Writes {@code http}, then the body of {@code response} unless it was whole in {@code http} or
   * the request was a HEAD. Blocks while the socket is not writable: call it off the event loop.
   *
   * @return the body bytes sent
   * @throws IOException when the body cannot be read or the client went away
   */
  long send(ChannelHandlerContext ctx, HttpResponse http, S3Response response, boolean headRequest)
      throws IOException {
    if (http instanceof FullHttpResponse) {
      ctx.writeAndFlush(http);
      return response.bytes().length;
    }
    long sent = 0;
    ctx.writeAndFlush(http);
    if (!headRequest && response.stream() != null) {
      sent = stream(ctx, response.stream());
    }
    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
    return sent;
  }

  private long stream(ChannelHandlerContext ctx, InputStream body) throws IOException {
    if (body instanceof ChunkedStream chunks) {
      return stream(ctx, chunks);
    }
    long sent = 0;
    while (true) {
      // A fresh array per chunk: Netty keeps it until written, so no second copy is needed.
      byte[] buffer = new byte[CHUNK_BYTES];
      int n = body.readNBytes(buffer, 0, buffer.length);
      if (n <= 0) {
        return sent;
      }
      awaitWritable(ctx);
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
  private long stream(ChannelHandlerContext ctx, ChunkedStream chunks) throws IOException {
    long sent = 0;
    for (ChunkedStream.Chunk chunk = chunks.nextChunk();
        chunk != null;
        chunk = chunks.nextChunk()) {
      awaitWritable(ctx);
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

  private void awaitWritable(ChannelHandlerContext ctx) {
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

  /** Wakes a thread waiting in {@link #send}: the channel's writability changed, or it closed. */
  void writabilityChanged() {
    writability.lock();
    try {
      writable.signalAll();
    } finally {
      writability.unlock();
    }
  }
}
