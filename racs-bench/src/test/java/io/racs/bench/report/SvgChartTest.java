package io.racs.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Proves the chart's y axis follows the means, not the error bars: a whisker far above the data is
 * clipped at the axis and marked (arrowhead with the full interval, a note under the legend), and a
 * chart whose whiskers fit shows no mark.
 */
class SvgChartTest {
  private static final Pattern Y_TICK =
      Pattern.compile("<text x=\"66\" y=\"[0-9.]+\" text-anchor=\"end\">([0-9.]+)</text>");

  private static double highestTick(String svg) {
    Matcher m = Y_TICK.matcher(svg);
    double max = 0;
    while (m.find()) {
      max = Math.max(max, Double.parseDouble(m.group(1)));
    }
    return max;
  }

  @Test
  void render_whenAWhiskerIsTwentyTimesTheMean_scalesToTheMeansAndMarksTheClip() {
    // The demo's case: 1308 ± 26312 ops/s beside a tight 1000 ± 50.
    String svg =
        new SvgChart("t", "clients", "ops/s")
            .add(
                new SvgChart.Series(
                    "racs-proxy",
                    new double[] {1, 8},
                    new double[] {1308, 1000},
                    new double[] {26312, 50}))
            .render();
    assertThat(highestTick(svg)).isEqualTo(2000);
    assertThat(svg).doesNotContain(">30000<", ">100000<");
    assertThat(svg)
        .containsOnlyOnce("class=\"clipped\"")
        .contains("<title>racs-proxy: interval -25004 to 27620, clipped at 2000</title>")
        .contains("▲ 1 whisker clipped");
  }

  @Test
  void render_whenASeriesHasNoPoint_drawsNoLineForItAndSaysSoInTheLegend() {
    SvgChart chart =
        new SvgChart("t", "clients", "ops/s")
            .add(new SvgChart.Series("old", new double[] {1}, new double[] {Double.NaN}, null))
            .add(new SvgChart.Series("new", new double[] {1}, new double[] {5}, null));
    assertThat(chart.hasData()).isTrue();
    String svg = chart.render();
    assertThat(svg).containsOnlyOnce("class=\"series\"").contains(">old (no data)<");
    assertThat(
            new SvgChart("t", "x", "y")
                .add(new SvgChart.Series("old", new double[] {1}, new double[] {Double.NaN}, null))
                .hasData())
        .isFalse();
  }

  @Test
  void render_whenWhiskersFit_marksNothing() {
    String svg =
        new SvgChart("t", "clients", "ops/s")
            .add(
                new SvgChart.Series(
                    "repo-0",
                    new double[] {1, 8},
                    new double[] {1000, 4000},
                    new double[] {30, 200}))
            .render();
    assertThat(highestTick(svg)).isEqualTo(5000);
    assertThat(svg).doesNotContain("class=\"clipped\"", "clipped");
    assertThat(svg).contains("class=\"series\"", "class=\"whisker\"");
  }

  @Test
  void clientTicks_whenClientCountsRepeat_ticksEachOnceAsAWholeNumber() {
    String svg =
        new SvgChart("t", "clients", "ops/s")
            .clientTicks(new int[] {8, 1, 8})
            .add(new SvgChart.Series("a", new double[] {1, 8}, new double[] {1, 2}, null))
            .render();
    assertThat(svg).containsOnlyOnce(">1</text>").containsOnlyOnce(">8</text>");
    assertThat(svg).doesNotContain(">2.75<", ">1.00<");
  }
}
