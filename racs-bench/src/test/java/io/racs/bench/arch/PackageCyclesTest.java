package io.racs.bench.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

/**
 * Keeps the bench's top-level packages (cli, demo, object, block, report, stats, agent, jmh) free
 * of cycles: the command line depends on the demo, never the other way round. Each top-level
 * package is one slice with its sub-packages, since a parent and its child package (object.target
 * and object.target.s3) are one unit. A fixture with a cycle proves the rule can fail.
 */
class PackageCyclesTest {
  private static ArchRule noCyclesUnder(String root) {
    return slices()
        .matching(root + ".(*)..")
        .should()
        .beFreeOfCycles()
        .because("a package cycle makes neither side understandable or testable alone");
  }

  @Test
  void benchPackages_whenProductionClassesImported_formNoCycle() {
    JavaClasses production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.racs.bench");
    assertThat(production.containPackage("io.racs.bench.cli")).isTrue();
    assertThat(production.containPackage("io.racs.bench.demo")).isTrue();
    noCyclesUnder("io.racs.bench").check(production);
  }

  @Test
  void rule_whenFixturePackagesUseEachOther_reportsTheCycle() {
    JavaClasses fixture = new ClassFileImporter().importPackages("io.racs.bench.arch.fixture");
    EvaluationResult result = noCyclesUnder("io.racs.bench.arch.fixture").evaluate(fixture);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().toString()).contains("Cycle detected");
  }
}
