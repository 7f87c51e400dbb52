package io.racs.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.bench.report.BlockCompare;
import io.racs.bench.report.Compare;
import io.racs.bench.report.CompareHtml;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code racs bench compare OLD.json NEW.json}: per-point ratios with intervals and verdicts. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Compare two results.json files of one command (bench object, or bench block sweep, dd,",
      "run or matrix): new/old per point and metric, with the confidence interval of the new run",
      "(99.9%% unless it asked for another) where both runs measured iterations, and whether the",
      "new run is faster, slower or within noise."
    })
public final class CompareCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "OLD", description = "The baseline results.json.")
  Path old;

  @Parameters(index = "1", paramLabel = "NEW", description = "The results.json to judge.")
  Path current;

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description =
          "Also write FILE: a self-contained page with both runs side by side (throughput charts"
              + " with both runs, the table of ratios); bench object results only.")
  Path html;

  @Override
  public Integer call() {
    JsonNode a = Compare.read(old);
    JsonNode b = Compare.read(current);
    String kind = a.path("kind").asText();
    if (!kind.equals(b.path("kind").asText())) {
      throw new IllegalArgumentException(
          "NEW: kind "
              + b.path("kind").asText()
              + " (expected: "
              + kind
              + ", the kind of OLD: compare runs of one command)");
    }
    if (html != null && !kind.equals("object")) {
      throw new IllegalArgumentException(
          "--html: "
              + kind
              + " results (expected: bench object results; block runs compare as text)");
    }
    int matched;
    if (kind.equals("object")) {
      matched = Compare.print(a, b, spec.commandLine().getOut());
    } else if (BlockCompare.handles(kind)) {
      matched = BlockCompare.print(kind, a, b, spec.commandLine().getOut());
    } else {
      throw new IllegalArgumentException(
          "OLD: kind "
              + kind
              + " (expected: object, block-sweep, block-dd, block-run or block-matrix)");
    }
    if (matched == 0) {
      throw new IllegalArgumentException(
          "points: no point id is in both files (expected: runs of the same workloads)");
    }
    if (html != null) {
      try {
        CompareHtml.write(a, old.toString(), b, current.toString(), html);
      } catch (java.io.IOException e) {
        throw new IllegalStateException(html + ": cannot write: " + e.getMessage(), e);
      }
      spec.commandLine().getOut().println("html: " + html.toAbsolutePath().normalize());
    }
    return ExitCodes.OK;
  }
}
