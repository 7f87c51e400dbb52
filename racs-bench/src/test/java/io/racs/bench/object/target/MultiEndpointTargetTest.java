package io.racs.bench.object.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.racs.bench.agent.TargetSpec;
import io.racs.bench.object.target.S3EndpointTarget.Endpoint;
import io.racs.bench.object.target.S3EndpointTarget.Payload;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that one target given several endpoints ({@code --endpoint http://a,http://b}) sends each
 * request to the next endpoint in turn, as warp's {@code --host a,b}, each client starting at its
 * own index, or with {@code --host-select sticky} every request of client {@code i} to endpoint
 * {@code i mod E}, and reports as one target; requests recorded by plain HTTP servers.
 */
class MultiEndpointTargetTest {
  private final List<HttpServer> servers = new ArrayList<>();
  private final List<List<String>> paths = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    for (int i = 0; i < 2; i++) {
      List<String> seen = new ArrayList<>();
      paths.add(seen);
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
      server.createContext(
          "/",
          exchange -> {
            try (exchange) {
              exchange.getRequestBody().readAllBytes();
              synchronized (seen) {
                seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
              }
              exchange.getResponseHeaders().set("ETag", "\"0\"");
              exchange.sendResponseHeaders(200, -1);
            }
          });
      server.start();
      servers.add(server);
    }
  }

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
  }

  private List<String> objectRequests(int server) {
    synchronized (paths.get(server)) {
      return paths.get(server).stream().filter(p -> p.contains("/k")).toList();
    }
  }

  private List<Endpoint> hosts() {
    List<Endpoint> hosts = new ArrayList<>();
    for (HttpServer s : servers) {
      hosts.add(
          new Endpoint(
              "pair",
              URI.create("http://127.0.0.1:" + s.getAddress().getPort()),
              "access",
              "secret-key",
              "us-east-1",
              "bkt",
              Payload.UNSIGNED));
    }
    return hosts;
  }

  @Test
  void client_whenTwoEndpoints_sendsEachRequestToTheNextInTurn() {
    try (Target target = TargetSpec.endpoints(hosts()).build()) {
      assertThat(target).isInstanceOf(MultiEndpointTarget.class);
      assertThat(target.name()).isEqualTo("pair");
      assertThat(target.describe().get("location"))
          .contains(":" + servers.get(0).getAddress().getPort() + "/bkt,")
          .contains(":" + servers.get(1).getAddress().getPort() + "/bkt");
      try (Target.Client first = target.client(0)) {
        for (int i = 1; i <= 4; i++) {
          first.put("k" + i, new ByteArrayInputStream(new byte[] {1}), 1);
        }
      }
      try (Target.Client second = target.client(1)) {
        second.head("k5");
      }
    }
    assertThat(objectRequests(0)).containsExactly("PUT /bkt/k1", "PUT /bkt/k3");
    assertThat(objectRequests(1)).containsExactly("PUT /bkt/k2", "PUT /bkt/k4", "HEAD /bkt/k5");
  }

  @Test
  void client_whenStickyOverTwoEndpoints_sendsEveryRequestOfClientIToEndpointIModTwo() {
    try (Target target = TargetSpec.endpoints(hosts(), HostSelect.STICKY).build()) {
      assertThat(target.describe().get("hostSelection")).startsWith("sticky");
      for (int c = 0; c < 3; c++) {
        try (Target.Client client = target.client(c)) {
          for (int i = 1; i <= 2; i++) {
            client.put("k" + c + "-" + i, new ByteArrayInputStream(new byte[] {1}), 1);
          }
          client.head("k" + c + "-1");
        }
      }
    }
    assertThat(objectRequests(0))
        .containsExactly(
            "PUT /bkt/k0-1",
            "PUT /bkt/k0-2",
            "HEAD /bkt/k0-1",
            "PUT /bkt/k2-1",
            "PUT /bkt/k2-2",
            "HEAD /bkt/k2-1");
    assertThat(objectRequests(1))
        .containsExactly("PUT /bkt/k1-1", "PUT /bkt/k1-2", "HEAD /bkt/k1-1");
  }

  @Test
  void parse_whenUnknownSelection_namesTheOptionAndItsValues() {
    assertThatThrownBy(() -> HostSelect.parse("weighed"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--host-select: weighed (expected: roundrobin or sticky)");
  }
}
