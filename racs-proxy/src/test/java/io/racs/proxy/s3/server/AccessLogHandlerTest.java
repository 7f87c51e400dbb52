package io.racs.proxy.s3.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.racs.proxy.s3.route.S3Router;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves the access log on Netty's {@code EmbeddedChannel}: one line per request with method,
 * bucket/key, status, bytes in and out, milliseconds and the request id; answers matched to
 * pipelined requests in order; a 100 Continue is not an answer; virtual-host buckets come from the
 * Host header; a connection closed before its answer logs it as aborted; and neither a header, a
 * query string, a signature nor a secret ever reaches the line.
 */
class AccessLogHandlerTest {
  private static final String LINE =
      "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,3})?Z embedded ";

  private final StringWriter text = new StringWriter();
  private final AccessLog log = AccessLog.to(text);

  private EmbeddedChannel channel(S3Router router) {
    return new EmbeddedChannel(new AccessLogHandler(log, router));
  }

  private List<String> lines() {
    log.close();
    return text.toString().lines().toList();
  }

  private static HttpRequest request(HttpMethod method, String uri, String... headers) {
    HttpRequest r = new DefaultHttpRequest(HttpVersion.HTTP_1_1, method, uri);
    for (int i = 0; i < headers.length; i += 2) {
      r.headers().add(headers[i], headers[i + 1]);
    }
    return r;
  }

  private static DefaultFullHttpResponse full(int status, String id, String body) {
    DefaultFullHttpResponse r =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(status),
            Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
    r.headers().set("x-amz-request-id", id);
    return r;
  }

  private static void releaseOutbound(EmbeddedChannel ch) {
    for (Object o; (o = ch.readOutbound()) != null; ) {
      ReferenceCountUtil.release(o);
    }
  }

  @Test
  void write_whenStreamedPutAndGet_logsOneLineEachWithBytesStatusAndId() {
    EmbeddedChannel ch = channel(S3Router.pathStyle());
    ch.writeInbound(request(HttpMethod.PUT, "/photos/2026/a%20b.jpg?partNumber=1&uploadId=u"));
    ch.writeInbound(new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[1000])));
    ch.writeInbound(new DefaultLastHttpContent(Unpooled.wrappedBuffer(new byte[24])));
    ch.writeOutbound(full(200, "AAAA000000000001", ""));
    ch.writeInbound(request(HttpMethod.GET, "/photos/2026/a%20b.jpg"));
    DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    head.headers().set("x-amz-request-id", "AAAA000000000002");
    ch.writeOutbound(head);
    ch.writeOutbound(new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[65536])));
    ch.writeOutbound(new DefaultLastHttpContent(Unpooled.wrappedBuffer(new byte[100])));
    releaseInbound(ch);
    releaseOutbound(ch);
    List<String> lines = lines();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0))
        .matches(
            LINE
                + "PUT photos/2026/a%20b\\.jpg 200 in=1024 out=0 ms=\\d+\\.\\d id=AAAA000000000001"
                + " user=-");
    assertThat(lines.get(1))
        .matches(
            LINE
                + "GET photos/2026/a%20b\\.jpg 200 in=0 out=65636 ms=\\d+\\.\\d"
                + " id=AAAA000000000002 user=-");
    assertThat(log.recent()).as("the console's ring holds what the file got").isEqualTo(lines);
  }

  @Test
  void write_whenPipelinedRequestsAndAContinue_matchesAnswersInOrder() {
    EmbeddedChannel ch = channel(S3Router.pathStyle());
    ch.writeInbound(request(HttpMethod.HEAD, "/b/one"));
    ch.writeInbound(request(HttpMethod.DELETE, "/b/two"));
    ch.writeInbound(request(HttpMethod.PUT, "/b/three", "Expect", "100-continue"));
    DefaultFullHttpResponse missing =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND);
    missing.headers().set("x-amz-request-id", "ID1");
    ch.writeOutbound(missing);
    ch.writeOutbound(full(204, "ID2", ""));
    ch.writeOutbound(
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
    ch.writeOutbound(full(501, "ID3", "<Error><Code>NotImplemented</Code></Error>"));
    releaseInbound(ch);
    releaseOutbound(ch);
    List<String> lines = lines();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).contains(" HEAD b/one 404 in=0 out=0 ").endsWith(" id=ID1 user=-");
    assertThat(lines.get(1)).contains(" DELETE b/two 204 ").endsWith(" id=ID2 user=-");
    assertThat(lines.get(2)).contains(" PUT b/three 501 in=0 out=42 ").endsWith(" id=ID3 user=-");
  }

  @Test
  void write_whenTheConnectionNamedTheUser_logsIt() {
    EmbeddedChannel ch = channel(S3Router.pathStyle());
    ch.writeInbound(request(HttpMethod.GET, "/b/one"));
    ch.attr(AccessLogHandler.USER).set("alice smith");
    ch.writeOutbound(full(200, "ID1", "x"));
    releaseInbound(ch);
    releaseOutbound(ch);
    assertThat(lines()).singleElement().asString().endsWith(" id=ID1 user=alice%20smith");
  }

  @Test
  void read_whenVirtualHostStyle_takesTheBucketFromTheHost() {
    EmbeddedChannel ch = channel(S3Router.withBaseDomain("s3.example.com"));
    ch.writeInbound(request(HttpMethod.GET, "/key/x", "Host", "photos.s3.example.com"));
    ch.writeOutbound(full(200, "ID", "x"));
    releaseInbound(ch);
    releaseOutbound(ch);
    assertThat(lines().getFirst()).contains(" GET photos/key/x 200 in=0 out=1 ");
  }

  @Test
  void channelInactive_whenClosedBeforeTheAnswer_logsTheRequestAsAborted() {
    EmbeddedChannel ch = channel(S3Router.pathStyle());
    ch.writeInbound(request(HttpMethod.GET, "/b/slow"));
    ch.close();
    releaseInbound(ch);
    assertThat(lines())
        .singleElement()
        .asString()
        .matches(LINE + "GET b/slow - in=0 out=0 .* aborted");
  }

  @Test
  void line_whenRequestCarriesCredentials_holdsNoHeaderQueryOrSecret() {
    EmbeddedChannel ch = channel(S3Router.pathStyle());
    String signature = "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7";
    ch.writeInbound(
        request(
            HttpMethod.GET,
            "/b/k%0Aforged\u2028line?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDSECRET"
                + "&X-Amz-Signature="
                + signature,
            "Authorization",
            "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request,"
                + " SignedHeaders=host, Signature="
                + signature,
            "x-amz-security-token",
            "TOKEN-SECRET"));
    ch.writeOutbound(full(403, "ID", ""));
    releaseInbound(ch);
    releaseOutbound(ch);
    String line = lines().getFirst();
    assertThat(line)
        .contains(" GET b/k%0Aforged%E2%80%A8line 403 ")
        .doesNotContain(signature, "AKID", "Credential", "TOKEN", "X-Amz", "Authorization", "?");
  }

  private static void releaseInbound(EmbeddedChannel ch) {
    for (Object o; (o = ch.readInbound()) != null; ) {
      ReferenceCountUtil.release(o);
    }
  }
}
