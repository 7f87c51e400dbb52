package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.MemoryArray;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the running server leaves a trace of requests it refuses: an unsigned GET (403) and a
 * request for an unsupported sub-resource each get one access log line with the request id the
 * client received, written to the file by the time the server has stopped.
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
}
