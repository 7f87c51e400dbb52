package io.racs.bench.demo;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Sends the log of everything the demo runs in its JVM (the proxy, the store, the servers) to a
 * file, so that the story the demo prints is not interleaved with log lines; the demo names the
 * file at its end.
 */
final class DemoLog {
  private DemoLog() {}

  /** From now on, every log line of this JVM goes to {@code file} (appended) and none to stderr. */
  static Path toFile(Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return file; // another logging backend: its own configuration decides
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{HH:mm:ss.SSS} %-5level [%X{requestId:-}] %logger{20} - %msg%n");
    encoder.start();
    FileAppender<ILoggingEvent> appender = new FileAppender<>();
    appender.setContext(context);
    appender.setName("DEMO-FILE");
    appender.setFile(file.toAbsolutePath().toString());
    appender.setAppend(true);
    appender.setEncoder(encoder);
    appender.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    root.detachAppender("STDERR");
    return file;
  }
}
