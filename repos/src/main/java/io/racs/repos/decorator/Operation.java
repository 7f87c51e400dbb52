package io.racs.repos.decorator;

/** The calls of a {@link io.racs.repos.Repository}, as decorators count, delay and fail them. */
public enum Operation {
  PUT,
  GET,
  HEAD,
  DELETE,
  LIST,
  PROBE
}
