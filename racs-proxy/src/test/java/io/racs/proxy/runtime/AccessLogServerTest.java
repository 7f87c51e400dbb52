package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.auth.SigV4;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.MemoryArray;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the running server leaves a trace of requests it refuses: an unsigned GET (403) and a
 * request for an unsupported sub-resource each get one access log line with the request id the
 * client received, written to the file by the time the server has stopped; and a form upload (POST
 * Object) is logged under who uploads, its signer or {@code anonymous}, refused or not.
 */
class AccessLogServerTest {
  @Test
  void server_whenRequestsAreRefused_logsEachWithTheIdTheClientSaw(@TempDir Path dir)
      throws Exception {
    ErasureStore store = MemoryArray.open("4x2");
    Path file = dir.resolve("logs/access.log");
    RacsServer server =
        RacsServer.start(
            store,
            ServerConfig.defaults().with("127.0.0.1:0", Map.of("ak", "secret")).withAdmin(null),
            AccessLog.toFile(file));
    HttpResponse<Void> denied;
    try (HttpClient http = HttpClient.newHttpClient()) {
      denied =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + server.port() + "/bucket/some/key?acl"))
                  .build(),
              HttpResponse.BodyHandlers.discarding());
    } finally {
      server.close();
    }
    assertThat(denied.statusCode()).isEqualTo(403);
    String id = denied.headers().firstValue("x-amz-request-id").orElseThrow();
    List<String> lines = Files.readAllLines(file);
    assertThat(lines)
        .singleElement()
        .asString()
        .contains(" GET bucket/some/key 403 in=0 out=")
        .endsWith(" id=" + id + " user=anonymous");
  }

  @Test
  void server_whenFormsAreUploaded_logsTheSignerOrAnonymous(@TempDir Path dir) throws Exception {
    ErasureStore store = MemoryArray.open("4x2");
    store.createBucket("forms");
    Path file = dir.resolve("logs/access.log");
    RacsServer server =
        RacsServer.start(
            store,
            ServerConfig.defaults().with("127.0.0.1:0", Map.of("ak", "secret")).withAdmin(null),
            AccessLog.toFile(file));
    int signed;
    int anonymous;
    try (HttpClient http = HttpClient.newHttpClient()) {
      URI bucket = URI.create("http://127.0.0.1:" + server.port() + "/forms");
      signed = post(http, bucket, signedForm("ak", "secret", "a.txt")).statusCode();
      anonymous = post(http, bucket, Map.of("key", "b.txt")).statusCode();
    } finally {
      server.close();
    }
    assertThat(signed).isEqualTo(204);
    assertThat(anonymous).isEqualTo(403);
    List<String> posts =
        Files.readAllLines(file).stream().filter(l -> l.contains(" POST forms ")).toList();
    assertThat(posts).hasSize(2);
    assertThat(posts.get(0)).contains(" 204 ").endsWith(" user=ak");
    assertThat(posts.get(1)).contains(" 403 ").endsWith(" user=anonymous");
  }

  /** The fields of a form for {@code key} whose policy {@code access} signs the SigV4 way. */
  private static Map<String, String> signedForm(String access, String secret, String key) {
    Instant now = Instant.now();
    String date =
        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(now);
    String credential = access + "/" + date.substring(0, 8) + "/us-east-1/s3/aws4_request";
    String policy =
        Base64.getEncoder()
            .encodeToString(
                ("{\"expiration\": \""
                        + now.plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS)
                        + "\", \"conditions\": [{\"bucket\": \"forms\"}, [\"eq\", \"$key\", \""
                        + key
                        + "\"], {\"x-amz-algorithm\": \"AWS4-HMAC-SHA256\"}, {\"x-amz-credential\": \""
                        + credential
                        + "\"}, {\"x-amz-date\": \""
                        + date
                        + "\"}]}")
                    .getBytes(StandardCharsets.UTF_8));
    byte[] signingKey = SigV4.deriveSigningKey(secret, date.substring(0, 8), "us-east-1", "s3");
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("key", key);
    fields.put("x-amz-algorithm", "AWS4-HMAC-SHA256");
    fields.put("x-amz-credential", credential);
    fields.put("x-amz-date", date);
    fields.put("policy", policy);
    fields.put("x-amz-signature", SigV4.sign(signingKey, policy));
    return fields;
  }

  /** POSTs a multipart form of {@code fields} and a small file to {@code bucket}. */
  private static HttpResponse<Void> post(HttpClient http, URI bucket, Map<String, String> fields)
      throws Exception {
    String boundary = "----RacsLogBoundary";
    StringBuilder body = new StringBuilder();
    fields.forEach(
        (name, value) ->
            body.append("--")
                .append(boundary)
                .append("\r\nContent-Disposition: form-data; name=\"")
                .append(name)
                .append("\"\r\n\r\n")
                .append(value)
                .append("\r\n"));
    body.append("--")
        .append(boundary)
        .append("\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.txt\"\r\n")
        .append("Content-Type: text/plain\r\n\r\nhello\r\n--")
        .append(boundary)
        .append("--\r\n");
    return http.send(
        HttpRequest.newBuilder(bucket)
            .header("content-type", "multipart/form-data; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .build(),
        HttpResponse.BodyHandlers.discarding());
  }
}
