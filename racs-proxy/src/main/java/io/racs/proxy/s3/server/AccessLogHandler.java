package io.racs.proxy.s3.server;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.racs.proxy.s3.route.S3Router;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Locale;

/**
 * Writes one {@link AccessLog} line per request, from where the HTTP codec hands requests in and
 * takes responses out, so that every answer is logged — a 403 or a 501 as much as a 200, and an
 * error written before any S3 handler ran:
 *
 * <pre>
 * 2026-01-01T12:00:00.123Z 127.0.0.1:53422 GET bucket/key 200 in=0 out=262144 ms=12.3 id=6F0A... user=alice
 * </pre>
 *
 * <p>Fields: the time the request head arrived (UTC), the client address, the method, {@code
 * bucket/key} as the client encoded it (the bucket comes from the {@code Host} header in
 * virtual-host style; control characters and spaces are escaped as {@code %XX}, so one request is
 * always one line), the status, the body bytes received (as sent, framing included) and sent, the
 * milliseconds from the request head to the last response byte handed to the socket, and the
 * request id the client saw ({@code x-amz-request-id}), and the user the request was judged as
 * ({@code anonymous} for an unsigned one, {@code -} when it was refused before anyone was known). A
 * connection that closes before its answer logs {@code -} as the status and {@code aborted}.
 * Nothing else is logged: no header, no query string (presigned URLs carry their signature there),
 * no credential.
 *
 * <p>Requests on one connection are answered in order (HTTP/1.1), so responses are matched to
 * requests first in, first out. Runs on the connection's event loop; not shareable.
 */
final class AccessLogHandler extends ChannelDuplexHandler {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ISO_INSTANT;

  /**
   * The user of the request being answered on the channel ({@code Access#user()}), set by the
   * connection once it knows; null (logged as {@code -}) before, and for a request refused before.
   * The connection serves one request at a time, so when a response passes here the attribute is
   * its request's.
   */
  static final AttributeKey<String> USER = AttributeKey.valueOf("racs.user");

  private final AccessLog log;
  private final S3Router router;
  // Requests whose answer has not started, oldest first; a pipelining client may send several.
  private final ArrayDeque<Entry> waiting = new ArrayDeque<>();
  private Entry reading;
  private Entry writing;

  private static final class Entry {
    final Instant time = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    final long startNanos = System.nanoTime();
    final String client;
    final String method;
    final String target;
    long bytesIn;
    long bytesOut;
    int status = -1;
    String requestId = "-";
    String user = "-";

    Entry(String client, String method, String target) {
      this.client = client;
      this.method = method;
      this.target = target;
    }
  }

  AccessLogHandler(AccessLog log, S3Router router) {
    this.log = log;
    this.router = router;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof HttpRequest request) {
      reading =
          new Entry(
              address(ctx.channel().remoteAddress()), request.method().name(), target(request));
      waiting.add(reading);
    }
    if (msg instanceof HttpContent content && reading != null) {
      reading.bytesIn += content.content().readableBytes();
    }
    ctx.fireChannelRead(msg);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof HttpResponse response) {
      if (response.status().code() >= 200) {
        writing = waiting.poll();
        if (writing == null) {
          // An answer to no request the codec passed on (a malformed head): log it all the same.
          writing = new Entry(address(ctx.channel().remoteAddress()), "-", "-");
        }
        writing.status = response.status().code();
        String user = ctx.channel().attr(USER).get();
        writing.user = user == null ? "-" : user;
        String id = response.headers().get("x-amz-request-id");
        writing.requestId = id == null ? "-" : id;
      }
    }
    if (msg instanceof HttpContent content && writing != null) {
      writing.bytesOut += content.content().readableBytes();
      if (msg instanceof LastHttpContent) {
        finish(writing, false);
        writing = null;
      }
    }
    ctx.write(msg, promise);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (writing != null) {
      finish(writing, true);
      writing = null;
    }
    for (Entry e; (e = waiting.poll()) != null; ) {
      finish(e, true);
    }
    ctx.fireChannelInactive();
  }

  private void finish(Entry e, boolean aborted) {
    double millis = (System.nanoTime() - e.startNanos) / 1e6;
    log.record(
        String.format(
            Locale.ROOT,
            "%s %s %s %s %s in=%d out=%d ms=%.1f id=%s user=%s%s",
            TIME.format(e.time),
            e.client,
            e.method,
            e.target,
            e.status < 0 ? "-" : Integer.toString(e.status),
            e.bytesIn,
            e.bytesOut,
            millis,
            e.requestId,
            escape(e.user),
            aborted ? " aborted" : ""));
  }

  /** {@code bucket/key} of a request, as sent (percent-encoded), without the query string. */
  private String target(HttpRequest request) {
    String uri = request.uri();
    int scheme = uri.indexOf("://");
    if (!uri.startsWith("/") && scheme > 0) {
      int slash = uri.indexOf('/', scheme + 3);
      uri = slash < 0 ? "/" : uri.substring(slash);
    }
    int cut = uri.length();
    for (char c : new char[] {'?', '#'}) {
      int i = uri.indexOf(c);
      if (i >= 0) {
        cut = Math.min(cut, i);
      }
    }
    String path = uri.substring(0, cut);
    String bucket;
    try {
      bucket = router.virtualHostBucket(request.headers().get("host")).orElse(null);
    } catch (RuntimeException e) {
      bucket = null;
    }
    String target = path.startsWith("/") ? path.substring(1) : path;
    if (bucket != null) {
      target = target.isEmpty() ? bucket : bucket + "/" + target;
    }
    return target.isEmpty() ? "/" : escape(target);
  }

  /** Keeps the line one line of fields: spaces, control characters and DEL become %XX. */
  private static String escape(String s) {
    StringBuilder out = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean bad = c <= ' ' || c == 0x7f || c == '\u2028' || c == '\u2029' || c == 0x85;
      if (bad && out == null) {
        out = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      if (out != null) {
        if (bad) {
          for (byte b : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
            out.append(String.format(Locale.ROOT, "%%%02X", b & 0xff));
          }
        } else {
          out.append(c);
        }
      }
    }
    return out == null ? s : out.toString();
  }

  private static String address(SocketAddress address) {
    if (address instanceof InetSocketAddress a) {
      return a.getHostString() + ":" + a.getPort();
    }
    return address == null ? "-" : address.toString();
  }
}
