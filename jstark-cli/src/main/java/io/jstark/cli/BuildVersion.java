package io.jstark.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** {@code jstark --version}: the version the build wrote into {@code version.properties}, never one typed in code. */
final class BuildVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {
            "jstark " + version(), "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"
        };
    }

    static String version() {
        try (InputStream in = BuildVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing from the jstark-cli jar");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
