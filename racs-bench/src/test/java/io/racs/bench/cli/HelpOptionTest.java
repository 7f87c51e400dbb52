package io.racs.bench.cli;

import io.racs.testkit.HelpOptionCheck;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Proves the README's promise that {@code --help} works on every command of {@code racs bench}:
 * each command of the tree prints its usage with the exit codes and exits 0 ({@link
 * HelpOptionCheck}).
 */
class HelpOptionTest {
  @TestFactory
  List<DynamicTest> help_whenAskedOfEveryCommand_printsUsageAndExitsZero() {
    return HelpOptionCheck.everyCommand(BenchMain.commandLine(), BenchMain::run, 10);
  }
}
