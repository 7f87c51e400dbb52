package io.racs.repos.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

/**
 * Keeps the packages of this module free of cycles: the SPI ({@code io.racs.repos}), each backend,
 * the decorators, the configuration loader and the MinIO processes may depend on one another only
 * one way (docs/architecture.md). Every package is its own slice, the SPI's too, and nested ones
 * count apart from their parents. A fixture of two packages that use each other proves the rule can
 * fail.
 */
class PackageCyclesTest {
  /** Every package of the imported classes, one slice each, free of cycles. */
  private static ArchRule noCyclesBetweenPackages() {
    return slices()
        .matching("io.racs.(**)")
        .namingSlices("$1")
        .should()
        .beFreeOfCycles()
        .because("a package's dependencies point one way");
  }

  @Test
  void packages_whenProductionClassesImported_haveNoCycles() {
    JavaClasses production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.racs.repos");
    assertThat(production.containPackage("io.racs.repos")).isTrue();
    assertThat(production.containPackage("io.racs.repos.fs")).isTrue();
    assertThat(production.containPackage("io.racs.repos.config")).isTrue();
    noCyclesBetweenPackages().check(production);
  }

  @Test
  void rule_whenTwoPackagesUseEachOther_reportsTheCycle() {
    JavaClasses fixture = new ClassFileImporter().importPackages("io.racs.repos.arch.fixture");
    EvaluationResult result = noCyclesBetweenPackages().evaluate(fixture);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().toString())
        .contains("repos.arch.fixture.a")
        .contains("repos.arch.fixture.b");
  }
}
