package io.jstark.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child of {@link ForkedHostileVerifyTest}: runs {@code jstark verify PROOF --key KEY --expect
 * STATEMENT} for each line "name key statement proof" of the manifest file, in this one small-heap JVM,
 * and prints "RESULT name exit-code" after each.
 */
public final class HostileFilesMain {
    private HostileFilesMain() {}

    public static void main(String[] args) throws Exception {
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split("\t");
            int code = Main.run("verify", f[3], "--key", f[1], "--expect", f[2]);
            System.out.flush();
            System.out.println("RESULT " + f[0] + " " + code);
            System.out.flush();
        }
        System.out.println("DONE heap " + Runtime.getRuntime().maxMemory());
    }
}
