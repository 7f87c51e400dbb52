package io.racs.bench.object.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;

/**
 * Operation weights, such as {@code get=60,put=30,delete=10}, realised exactly: each client draws
 * from a shuffled deck holding every operation its weight's number of times (reduced by the
 * weights' greatest common divisor), and reshuffles when the deck is used up, so every full deck is
 * exactly the mix. A single operation is a mix of one.
 */
public final class Mix {
  private final Map<Op, Integer> weights;

  private Mix(Map<Op, Integer> weights) {
    this.weights = weights;
  }

  /** A workload of one operation. */
  public static Mix of(Op op) {
    Map<Op, Integer> weights = new EnumMap<>(Op.class);
    weights.put(op, 1);
    return new Mix(weights);
  }

  /**
   * Parses {@code op=weight,...}.
   *
   * @throws IllegalArgumentException on an unknown operation, a repeated one, or a weight that is
   *     not a positive integer
   */
  public static Mix parse(String text) {
    Map<Op, Integer> weights = new EnumMap<>(Op.class);
    for (String part : text.split(",")) {
      String[] kv = part.split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException(
            "mix: " + text + " (expected: op=weight,... such as get=60,put=30,delete=10)");
      }
      Op op = Op.parse(kv[0]);
      int weight;
      try {
        weight = Integer.parseInt(kv[1].trim());
      } catch (NumberFormatException e) {
        weight = -1;
      }
      if (weight < 1 || weight > 1_000_000) {
        throw new IllegalArgumentException(
            "mix weight of " + op.label() + ": " + kv[1] + " (expected: 1 to 1000000)");
      }
      if (weights.put(op, weight) != null) {
        throw new IllegalArgumentException("mix: " + text + " (expected: each operation once)");
      }
    }
    int gcd = 0;
    for (int w : weights.values()) {
      gcd = gcd(gcd, w);
    }
    for (Map.Entry<Op, Integer> e : weights.entrySet()) {
      e.setValue(e.getValue() / gcd);
    }
    return new Mix(weights);
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /** The reduced weights, in operation order. */
  public Map<Op, Integer> weights() {
    return Collections.unmodifiableMap(weights);
  }

  /** True for a mix of one operation. */
  public boolean isSingle() {
    return weights.size() == 1;
  }

  /** The single operation; only for {@link #isSingle()} mixes. */
  public Op single() {
    return weights.keySet().iterator().next();
  }

  /** True when the mix contains {@code op}. */
  public boolean contains(Op op) {
    return weights.containsKey(op);
  }

  /** The label in reports: the operation for a single one, else {@code mixed}. */
  public String label() {
    return isSingle() ? single().label() : "mixed";
  }

  /** The canonical text form, {@code get=6,put=3,delete=1}. */
  @Override
  public String toString() {
    StringJoiner joiner = new StringJoiner(",");
    weights.forEach((op, w) -> joiner.add(op.label() + "=" + w));
    return joiner.toString();
  }

  /** A new deck for one client, shuffled by {@code seed}. */
  public Deck deck(long seed) {
    List<Op> cards = new ArrayList<>();
    weights.forEach(
        (op, w) -> {
          for (int i = 0; i < w; i++) {
            cards.add(op);
          }
        });
    return new Deck(cards, new Random(seed));
  }

  /** A client's deck of operations; not thread-safe. */
  public static final class Deck {
    private final List<Op> cards;
    private final Random random;
    private int position;

    private Deck(List<Op> cards, Random random) {
      this.cards = cards;
      this.random = random;
      this.position = cards.size();
    }

    /** The next operation; every {@code size()} draws from the first hold the exact mix. */
    public Op next() {
      if (position == cards.size()) {
        Collections.shuffle(cards, random);
        position = 0;
      }
      return cards.get(position++);
    }

    /** Cards in one deck. */
    public int size() {
      return cards.size();
    }
  }
}
