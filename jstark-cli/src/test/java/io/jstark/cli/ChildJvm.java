package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A command run in a JVM of its own, the tests' JDK's: what the forked launch tests share. */
final class ChildJvm {
    private ChildJvm() {}

    /** The {@code java} launcher of the JDK running the tests. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Runs {@code command} with its stdout and stderr together in {@code out}; its output, after checking that it ended
     * within two minutes with exit code 0.
     */
    static String runOk(List<String> command, Path out) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(text).isZero();
        return text;
    }
}
