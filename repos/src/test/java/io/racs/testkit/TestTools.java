package io.racs.testkit;

import io.racs.repos.minio.ProvisionedTools;
import java.nio.file.Path;

/**
 * The client tools the end-to-end and cross-check tests drive, as {@code scripts/provision.sh}
 * installs them: the Python virtualenv with aws-cli and boto3, rclone, mc, s5cmd, fio, headless
 * Chromium, HAProxy and Azurite (fake-gcs-server, Toxiproxy and OpenSSH: see {@code
 * io.racs.repos.emulator}). Each is found by {@link ProvisionedTools#require(String)}, so a missing
 * one fails the test with the command that installs it.
 */
public final class TestTools {
  private TestTools() {}

  /** The Python interpreter of the virtualenv that holds aws-cli and boto3. */
  public static Path python() {
    return ProvisionedTools.require("RACS_PYTHON");
  }

  /** The aws-cli entry point inside the virtualenv. */
  public static Path awsCli() {
    return ProvisionedTools.require("RACS_AWS_CLI");
  }

  /** The rclone binary. */
  public static Path rclone() {
    return ProvisionedTools.require("RACS_RCLONE");
  }

  /** The MinIO client, mc, built from a pinned Go module version. */
  public static Path mc() {
    return ProvisionedTools.require("RACS_MC");
  }

  /** s5cmd, built from a pinned Go module version. */
  public static Path s5cmd() {
    return ProvisionedTools.require("RACS_S5CMD");
  }

  /** The fio binary. */
  public static Path fio() {
    return ProvisionedTools.require("RACS_FIO");
  }

  /** Debian's Chromium, for the report's browser tests. */
  public static Path chromium() {
    return ProvisionedTools.require("RACS_CHROMIUM");
  }

  /**
   * ChromeDriver (Debian's {@code chromium-driver}), the WebDriver server that drives {@link
   * #chromium()} in the console's browser test.
   */
  public static Path chromedriver() {
    return ProvisionedTools.require("RACS_CHROMEDRIVER");
  }

  /**
   * axe-core's browser script ({@code axe.min.js}, from npm at a pinned version), which the
   * console's browser test runs inside each page to check its accessibility.
   */
  public static Path axeCore() {
    return ProvisionedTools.requireFile("RACS_AXE_CORE");
  }

  /** Azurite's blob service ({@code azurite-blob}), installed from npm at a pinned version. */
  public static Path azuriteBlob() {
    return ProvisionedTools.require("RACS_AZURITE_BLOB");
  }

  /** fake-gcs-server, the Google Cloud Storage emulator, built from a pinned Go module version. */
  public static Path fakeGcs() {
    return ProvisionedTools.require("RACS_FAKE_GCS");
  }

  /** Toxiproxy's server, the TCP fault proxy, built from a pinned Go module version. */
  public static Path toxiproxy() {
    return ProvisionedTools.require("RACS_TOXIPROXY");
  }

  /** Debian's HAProxy, the load balancer in front of several proxies (the Compose topology). */
  public static Path haproxy() {
    return ProvisionedTools.require("RACS_HAPROXY");
  }

  /**
   * libfaketime's preload library (Debian's {@code faketime}): with {@code LD_PRELOAD} and {@code
   * FAKETIME=+2d} a process reads a clock two days ahead of everyone else's.
   */
  public static Path faketimeLib() {
    return ProvisionedTools.requireFile("RACS_FAKETIME_LIB");
  }
}
