package io.racs.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small line chart drawn as inline SVG: linear axes with ticks, one polyline per series with
 * point markers and optional error bars, a legend. No scripts, no external resources, so the report
 * opens anywhere.
 *
 * <p>The y axis is scaled to the data (the means), never to the error bars: an interval much wider
 * than its mean would otherwise squash every line flat at the bottom. A whisker that leaves the
 * axis is clipped at its edge and marked with an arrowhead whose tooltip gives the full interval,
 * and the chart says below its legend that whiskers were clipped.
 */
public final class SvgChart {
  private static final String[] COLOURS = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"
  };
  private static final int WIDTH = 640;
  private static final int HEIGHT = 320;
  private static final int LEFT = 70;
  private static final int RIGHT = 170;
  private static final int TOP = 30;
  private static final int BOTTOM = 45;

  /**
   * One series: points (x, y) with optional symmetric error bars.
   *
   * @param name legend text
   * @param x abscissae
   * @param y ordinates
   * @param error half-widths of error bars, or null
   */
  public record Series(String name, double[] x, double[] y, double[] error) {}

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final List<Series> series = new ArrayList<>();
  private String[] xTickLabels;
  private double[] xTicks;

  /** A chart with a title and axis labels. */
  public SvgChart(String title, String xLabel, String yLabel) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
  }

  /** The chart's title. */
  public String title() {
    return title;
  }

  /** Adds a series. */
  public SvgChart add(Series s) {
    series.add(s);
    return this;
  }

  /** Ticks the x axis at each distinct client count, labelled as whole numbers. */
  public SvgChart clientTicks(int[] clients) {
    int[] distinct = java.util.Arrays.stream(clients).distinct().sorted().toArray();
    double[] positions = new double[distinct.length];
    String[] labels = new String[distinct.length];
    for (int i = 0; i < distinct.length; i++) {
      positions[i] = distinct[i];
      labels[i] = Integer.toString(distinct[i]);
    }
    return xTicks(positions, labels);
  }

  /** Replaces the x ticks with labelled positions (e.g. percentiles on a nines scale). */
  public SvgChart xTicks(double[] positions, String[] labels) {
    this.xTicks = positions;
    this.xTickLabels = labels;
    return this;
  }

  /** Whether any series has a point to draw (a chart without one should not be shown). */
  public boolean hasData() {
    for (Series s : series) {
      for (double y : s.y) {
        if (!Double.isNaN(y)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The SVG element. */
  public String render() {
    double minX = Double.MAX_VALUE;
    double maxX = -Double.MAX_VALUE;
    double maxY = 0;
    for (Series s : series) {
      for (int i = 0; i < s.x.length; i++) {
        if (Double.isNaN(s.y[i])) {
          continue;
        }
        minX = Math.min(minX, s.x[i]);
        maxX = Math.max(maxX, s.x[i]);
        maxY = Math.max(maxY, s.y[i]);
      }
    }
    if (minX == Double.MAX_VALUE) {
      minX = 0;
      maxX = 1;
    }
    if (maxX == minX) {
      maxX = minX + 1;
    }
    // Headroom above the highest mean, so its marker and a short whisker stay inside.
    maxY = maxY <= 0 ? 1 : niceCeiling(1.15 * maxY);
    double plotW = WIDTH - LEFT - RIGHT;
    double plotH = HEIGHT - TOP - BOTTOM;
    final double x0 = minX;
    final double xSpan = maxX - minX;
    final double yMax = maxY;
    java.util.function.DoubleUnaryOperator px = x -> LEFT + (x - x0) / xSpan * plotW;
    java.util.function.DoubleUnaryOperator py = y -> TOP + plotH - y / yMax * plotH;
    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\""
                + " height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\""
                + " font-size=\"11\">%n",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">%s</text>%n",
            LEFT,
            Format.html(title)));
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"none\""
                + " stroke=\"#999\"/>%n",
            LEFT,
            TOP,
            plotW,
            plotH));
    for (int i = 0; i <= 4; i++) {
      double y = yMax * i / 4;
      double yy = py.applyAsDouble(y);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
              LEFT,
              yy,
              LEFT + plotW,
              yy,
              LEFT - 4,
              yy + 4,
              Format.number(y)));
    }
    double[] ticks = xTicks;
    String[] labels = xTickLabels;
    if (ticks == null) {
      ticks = new double[5];
      labels = new String[5];
      for (int i = 0; i <= 4; i++) {
        ticks[i] = x0 + xSpan * i / 4;
        labels[i] = Format.number(ticks[i]);
      }
    }
    for (int i = 0; i < ticks.length; i++) {
      double xx = px.applyAsDouble(ticks[i]);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#999\"/>"
                  + "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>%n",
              xx,
              TOP + plotH,
              xx,
              TOP + plotH + 4,
              xx,
              TOP + plotH + 16,
              Format.html(labels[i])));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
            LEFT + plotW / 2,
            HEIGHT - 8,
            Format.html(xLabel)));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text transform=\"translate(14,%.0f) rotate(-90)\" text-anchor=\"middle\">%s</text>%n",
            TOP + plotH / 2,
            Format.html(yLabel)));
    int clipped = 0;
    for (int k = 0; k < series.size(); k++) {
      Series s = series.get(k);
      String colour = COLOURS[k % COLOURS.length];
      StringBuilder points = new StringBuilder();
      for (int i = 0; i < s.x.length; i++) {
        if (Double.isNaN(s.y[i])) {
          continue;
        }
        double xx = px.applyAsDouble(s.x[i]);
        double yy = py.applyAsDouble(s.y[i]);
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", xx, yy));
        svg.append(
            String.format(
                Locale.ROOT,
                "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>%n",
                xx,
                yy,
                colour));
        if (s.error != null && !Double.isNaN(s.error[i]) && s.error[i] > 0) {
          double low = s.y[i] - s.error[i];
          double high = s.y[i] + s.error[i];
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\""
                      + " stroke=\"%s\"/>%n",
                  xx,
                  py.applyAsDouble(Math.max(0, low)),
                  xx,
                  py.applyAsDouble(Math.min(yMax, high)),
                  colour));
          if (high > yMax) {
            clipped++;
            double top = py.applyAsDouble(yMax);
            svg.append(
                String.format(
                    Locale.ROOT,
                    "<polygon class=\"clipped\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\""
                        + " fill=\"%s\"><title>%s: interval %s to %s, clipped at %s</title>"
                        + "</polygon>%n",
                    xx,
                    top - 6,
                    xx - 4,
                    top + 1,
                    xx + 4,
                    top + 1,
                    colour,
                    Format.html(s.name),
                    Format.number(low),
                    Format.number(high),
                    Format.number(yMax)));
          }
        }
      }
      boolean drawn = !points.isEmpty();
      if (drawn) {
        svg.append(
            String.format(
                Locale.ROOT,
                "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\""
                    + " points=\"%s\"/>%n",
                colour,
                points.toString().trim()));
      }
      int ly = TOP + 10 + 16 * k;
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.0f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                  + "<text x=\"%.0f\" y=\"%d\">%s</text>%n",
              LEFT + plotW + 10,
              ly - 9,
              colour,
              LEFT + plotW + 24,
              ly,
              Format.html(s.name + (drawn ? "" : " (no data)"))));
    }
    if (clipped > 0) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<text class=\"clip-note\" x=\"%.0f\" y=\"%d\">▲ %d whisker%s clipped"
                  + "</text><text x=\"%.0f\" y=\"%d\">at the axis (hover)</text>%n",
              LEFT + plotW + 10,
              TOP + 10 + 16 * series.size() + 8,
              clipped,
              clipped == 1 ? "" : "s",
              LEFT + plotW + 10,
              TOP + 10 + 16 * series.size() + 22));
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static double niceCeiling(double v) {
    double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= v) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }
}
