package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import io.racs.testkit.AzuriteExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs bench object --repository NAME} measures a repository that is neither {@code
 * fs} nor {@code s3}: an {@code azure} repository on a real Azurite, named in a configuration file
 * (with {@code create: true}, so the run's first call creates the container), every GET verified
 * and no error, its description in the results. Kept to about a second of measuring.
 */
class ObjectAzureIT {
  @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();

  @TempDir Path dir;

  @Test
  void object_whenAzureRepository_measuresPutAndVerifiedGet() throws Exception {
    Path config =
        Files.writeString(
            dir.resolve("racs.yaml"),
            """
            repositories:
              - name: az
                type: azure
                container: bench
                connectionString: "%s"
                serviceVersion: %s
                create: true
            """
                .formatted(AZURITE.connectionString(), AzuriteExtension.SERVICE_VERSION));
    Path out = dir.resolve("out");
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(stdout, true),
            new PrintWriter(stderr, true),
            "object",
            "--config",
            config.toString(),
            "--repository",
            "az",
            "--op",
            "put,get",
            "--sizes",
            "64KiB",
            "--objects",
            "4",
            "--clients",
            "1",
            "--warmup",
            "0",
            "--iterations",
            "2",
            "--duration",
            "250ms",
            "--verify",
            "--quiet",
            "--out",
            out.toString());
    assertThat(code).as(stderr.toString()).isEqualTo(ExitCodes.OK);
    assertThat(AZURITE.service().getBlobContainerClient("bench").exists()).isTrue();
    JsonNode root = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(root.get("points")).hasSize(2);
    for (JsonNode p : root.get("points")) {
      String id = p.get("id").asText();
      assertThat(id).startsWith("az/");
      assertThat(p.get("errorsTotal").asLong()).as(id).isZero();
      assertThat(p.get("ops").asLong()).as(id).isPositive();
      if (p.get("workload").asText().equals("get")) {
        assertThat(p.get("verifiedObjects").asLong()).as(id).isEqualTo(p.get("ops").asLong());
      }
    }
    assertThat(root.toString()).contains("\"type\":\"azure\"");
  }
}
