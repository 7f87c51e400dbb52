package io.racs.proxy.cli;

import picocli.CommandLine.IVersionProvider;

/** Reads the version from the jar manifest (absent when run from classes in an IDE). */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = VersionProvider.class.getPackage().getImplementationVersion();
    return new String[] {
      "racs " + (version != null ? version : "(development)"),
      "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"
    };
  }
}
