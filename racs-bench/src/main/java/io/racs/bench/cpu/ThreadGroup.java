package io.racs.bench.cpu;

/**
 * JVM threads grouped by the name the kernel keeps for them (its first 15 bytes), as HotSpot
 * (Temurin 25, G1) and Netty name them.
 */
enum ThreadGroup {
  /** "C1 CompilerThre", "C2 CompilerThre" (and Graal's "JVMCI"): the JIT compilers. */
  JIT("jit"),
  /** "GC Thread#N", "G1 ..." and "VM Thread", which runs the GC's stop-the-world pauses. */
  GC("gc"),
  /** Netty's "nioEventLoopGroup-N-M" and "epollEventLoopGroup-N-M": the S3 wire. */
  EVENT_LOOP("eventLoop"),
  /** "ForkJoinPool-...": the carriers of the virtual threads the store and repositories run on. */
  FORK_JOIN("forkJoin"),
  /** Every other thread. */
  OTHER("other");

  private final String label;

  ThreadGroup(String label) {
    this.label = label;
  }

  /** The group's name in results.json. */
  String label() {
    return label;
  }

  /** The group of a thread named {@code name}. */
  static ThreadGroup of(String name) {
    if (name.startsWith("C1 CompilerThre")
        || name.startsWith("C2 CompilerThre")
        || name.startsWith("JVMCI")) {
      return JIT;
    }
    if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.equals("VM Thread")) {
      return GC;
    }
    if (name.startsWith("nioEventLoopGro") || name.startsWith("epollEventLoopG")) {
      return EVENT_LOOP;
    }
    if (name.startsWith("ForkJoinPool")) {
      return FORK_JOIN;
    }
    return OTHER;
  }
}
