package io.racs.proxy.arch;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Keeps every package of the proxy free of cycles (each package its own slice, nested ones apart
 * from their parents), and the store's tiers in their order: each may use only the tiers below it
 * (docs/architecture.md), so a maintenance job never reaches into the facade and the format never
 * into the objects it describes.
 */
class PackageCyclesTest {
  private static final JavaClasses PRODUCTION =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.racs.proxy");

  @Test
  void packages_whenProductionClassesImported_haveNoCycles() {
    assertThat(PRODUCTION.containPackage("io.racs.proxy.store.commit")).isTrue();
    slices()
        .matching("io.racs.(**)")
        .namingSlices("$1")
        .should()
        .beFreeOfCycles()
        .because("a package's dependencies point one way")
        .check(PRODUCTION);
  }

  @Test
  void storeTiers_whenImported_useOnlyTheTiersBelowThem() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("facade")
        .definedBy("io.racs.proxy.store")
        .layer("heal")
        .definedBy(
            "io.racs.proxy.store.heal..",
            "io.racs.proxy.store.reshape..",
            "io.racs.proxy.store.users..")
        .layer("object")
        .definedBy("io.racs.proxy.store.object..")
        .layer("bucket")
        .definedBy("io.racs.proxy.store.bucket..")
        .layer("commit")
        .definedBy("io.racs.proxy.store.commit..")
        .layer("stripe")
        .definedBy("io.racs.proxy.store.stripe..")
        .layer("array")
        .definedBy("io.racs.proxy.store.array..")
        .layer("api")
        .definedBy("io.racs.proxy.store.api..")
        .layer("format")
        .definedBy("io.racs.proxy.store.format..")
        .whereLayer("facade")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("heal")
        .mayOnlyBeAccessedByLayers("facade")
        .whereLayer("object")
        .mayOnlyBeAccessedByLayers("facade", "heal")
        .whereLayer("bucket")
        .mayOnlyBeAccessedByLayers("facade", "heal", "object")
        .whereLayer("commit")
        .mayOnlyBeAccessedByLayers("facade", "heal", "object", "bucket")
        .whereLayer("stripe")
        .mayOnlyBeAccessedByLayers("facade", "heal", "object", "bucket", "commit")
        .whereLayer("array")
        .mayOnlyBeAccessedByLayers("facade", "heal", "object", "bucket", "commit", "stripe")
        .whereLayer("api")
        .mayOnlyBeAccessedByLayers(
            "facade", "heal", "object", "bucket", "commit", "stripe", "array")
        .because("each tier of the store builds on the tiers below it only")
        .check(PRODUCTION);
  }
}
