package io.racs.repos.config;

import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.LatencyRepository;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/** One entry of a repository's {@code decorators:} list. */
public sealed interface DecoratorConfig {
  /** {@code latency: {delay, jitter, responseDelay, responseJitter, lateRate, lateDelay, seed}}. */
  record Latency(
      LatencyRepository.Delay request,
      LatencyRepository.Delay response,
      LatencyRepository.Late late,
      long seed)
      implements DecoratorConfig {
    /** Without a late tail. */
    public Latency(LatencyRepository.Delay request, LatencyRepository.Delay response, long seed) {
      this(request, response, LatencyRepository.Late.NONE, seed);
    }
  }

  /**
   * {@code faulty: {outage, corruptReads, failKeys, failCall, failRate, kind, seed}}: faults armed
   * from the start (a benchmark of failure paths); tests usually arm them in code instead.
   */
  record Faulty(
      boolean outage,
      boolean corruptReads,
      Optional<Pattern> failKeys,
      OptionalLong failCall,
      double failRate,
      RepositoryException.Kind kind,
      long seed)
      implements DecoratorConfig {}

  /** {@code metered}: per-operation counts and latency histograms. */
  record Metered() implements DecoratorConfig {}
}
