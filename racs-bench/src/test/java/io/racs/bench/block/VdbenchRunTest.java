package io.racs.bench.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code block run} parses vdbench-style parameter files (comments, continuation lines,
 * lists), names the line and parameter of any error in one line with exit code 2, prints interval
 * and average lines, loops over forthreads × forxfersize, and runs an I/O-rate curve at percentages
 * of the measured max.
 */
class VdbenchRunTest {
  @TempDir Path dir;

  private Path params(String... lines) throws Exception {
    Path file = dir.resolve("params");
    Files.write(file, List.of(lines));
    return file;
  }

  private String lun() {
    return dir.resolve("lun").toString();
  }

  @Test
  void parse_whenCommentsContinuationAndLists_readsEveryParameter() {
    VdbenchParams p =
        VdbenchParams.parse(
            "p",
            List.of(
                "* a comment",
                "sd=sd1,lun=/x/lun,size=4m,openflags=o_direct",
                "wd=wd1,sd=sd1,xfersize=8k,rdpct=70,",
                "   seekpct=100,range=(10,50)",
                "rd=rd1,wd=wd1,iorate=curve,curve=(10-100,30),elapsed=0.4,warmup=0.2,",
                "   interval=0.2,forthreads=(1,2),forxfersize=(4k,64k),distribution=uniform"));
    VdbenchParams.Rd rd = p.runs().get(0);
    assertThat(rd.wd().sd().direct()).isTrue();
    assertThat(rd.wd().sd().sizeBytes()).isEqualTo(4 << 20);
    assertThat(rd.wd().readPercent()).isEqualTo(70);
    assertThat(rd.wd().rangeLowPercent()).isEqualTo(10);
    assertThat(rd.rateMode()).isEqualTo(VdbenchParams.RateMode.CURVE);
    assertThat(rd.curvePercents()).containsExactly(10.0, 40.0, 70.0, 100.0);
    assertThat(rd.threads()).containsExactly(1, 2);
    assertThat(rd.xferBytes()).containsExactly(4096, 65536);
    assertThat(rd.exponential()).isFalse();
    assertThat(rd.elapsedSeconds()).isEqualTo(0.4);
  }

  @Test
  void parse_whenBadValue_namesLineAndParameter() {
    assertThatThrownBy(
            () ->
                VdbenchParams.parse(
                    "p",
                    List.of(
                        "sd=sd1,lun=/x,size=1m",
                        "* comment",
                        "wd=wd1,sd=sd1,xfersize=4k,rdpct=170",
                        "rd=rd1,wd=wd1")))
        .hasMessage("p line 3: parameter 'rdpct': 170 (expected: an integer percentage 0..100)");
    assertThatThrownBy(() -> VdbenchParams.parse("p", List.of("sd=sd1,lun=/x,size=1m,colour=red")))
        .hasMessageStartingWith("p line 1: unknown parameter 'colour' for sd=");
  }

  @Test
  void run_whenParseError_failsAsUsageInOneLine() throws Exception {
    Path file = params("sd=sd1,lun=" + lun() + ",size=1m", "wd=wd1,sd=sd9", "rd=rd1,wd=wd1");
    StringWriter err = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(new StringWriter()),
            new PrintWriter(err, true),
            "block",
            "run",
            file.toString());
    assertThat(code).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "racs bench block run: params line 2: parameter 'sd': sd9 (expected: an sd= defined"
                + " above)"
                + System.lineSeparator());
  }

  @Test
  void run_whenMaxWithForLoops_printsIntervalsAndAverages() throws Exception {
    Path file =
        params(
            "sd=sd1,lun=" + lun() + ",size=2m,openflags=o_direct",
            "wd=wd1,sd=sd1,xfersize=4k,rdpct=50,seekpct=100",
            "rd=rd1,wd=wd1,iorate=max,elapsed=0.2,interval=0.1,forthreads=(1,2),"
                + "forxfersize=(4k,64k)");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            "block",
            "run",
            file.toString(),
            "--out",
            dir.resolve("out").toString());
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    assertThat(out.toString())
        .contains("interval", "i/o rate", "MB/sec", "bytes/io", "read%", "resp ms", "max ms")
        .contains("avg_1-2")
        .contains("rd=rd1,wd=wd1,threads=1,xfersize=4KiB,iorate=max")
        .contains("rd=rd1,wd=wd1,threads=2,xfersize=64KiB,iorate=max");
    JsonNode json = new ObjectMapper().readTree(dir.resolve("out/results.json").toFile());
    assertThat(json.get("kind").asText()).isEqualTo("block-run");
    assertThat(json.get("points"))
        .extracting(p -> p.get("id").asText())
        .containsExactly(
            "rd1/wd1/t1/4KiB/max",
            "rd1/wd1/t1/64KiB/max",
            "rd1/wd1/t2/4KiB/max",
            "rd1/wd1/t2/64KiB/max");
    JsonNode first = json.get("points").get(0);
    // 0.2 s at 0.1 s intervals without a warmup: two measured intervals, the estimates' samples.
    assertThat(first.get("intervals")).hasSize(2);
    assertThat(first.at("/iops/n").asInt()).isEqualTo(2);
    assertThat(first.at("/iops/mean").asDouble()).isPositive();
    assertThat(first.at("/iops/halfWidth").isNumber()).isTrue();
    assertThat(first.at("/average/name").asText()).isEqualTo("avg_1-2");
    assertThat(first.at("/megabytesPerSecond/mean").asDouble())
        .isCloseTo(
            first.at("/iops/mean").asDouble() * 4096 / 1e6,
            org.assertj.core.data.Percentage.withPercentage(1));
  }

  @Test
  void runAll_whenCurve_runsMaxThenFractionsOfIt() throws Exception {
    VdbenchParams p =
        VdbenchParams.parse(
            "p",
            List.of(
                "sd=sd1,lun=" + lun() + ",size=1m,openflags=o_direct",
                "wd=wd1,sd=sd1,xfersize=4k,rdpct=100",
                "rd=rd1,wd=wd1,iorate=curve,curve=(10,50),elapsed=0.3,warmup=0.1,interval=0.1,"
                    + "threads=1"));
    StringWriter out = new StringWriter();
    List<VdbenchRun.Summary> s = new VdbenchRun(new PrintWriter(out, true), false, 3).runAll(p);
    assertThat(s).hasSize(3);
    double max = s.get(0).rate();
    assertThat(s.get(1).label()).contains("iorate=10%=");
    assertThat(s.get(1).id()).isEqualTo("rd1/wd1/t1/4KiB/10%");
    assertThat(s.get(0).id()).isEqualTo("rd1/wd1/t1/4KiB/max");
    // Paced runs cannot exceed their target by much; the max run is unpaced.
    assertThat(s.get(1).rate()).isBetween(0.0, max * 0.10 * 1.5 + 20);
    assertThat(s.get(2).rate()).isBetween(0.0, max * 0.50 * 1.5 + 20);
    assertThat(out.toString()).contains("avg_2-3");
  }

  @Test
  void runAll_whenVerifyWithMixedReadsAndWrites_checksReadsCleanly() throws Exception {
    VdbenchParams p =
        VdbenchParams.parse(
            "p",
            List.of(
                "sd=sd1,lun=" + lun() + ",size=1m,openflags=o_direct",
                "wd=wd1,sd=sd1,xfersize=8k,rdpct=50,seekpct=50",
                "rd=rd1,wd=wd1,iorate=max,elapsed=0.2,interval=0.1,threads=2"));
    List<VdbenchRun.Summary> s =
        new VdbenchRun(new PrintWriter(new StringWriter(), true), true, 9).runAll(p);
    assertThat(s.get(0).rate()).isPositive();
    assertThat(s.get(0).failures()).isEmpty();
  }
}
