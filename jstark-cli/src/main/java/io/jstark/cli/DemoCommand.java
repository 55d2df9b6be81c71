package io.jstark.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code jstark demo}: the README's main job: prove the small VM, verify it, inspect it. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Prove the 'vm' example (CPU, memory and range-check tables "
                + "tied by buses), verify the proof and show its shape.")
public final class DemoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        int code = Main.run("prove", "--example", "vm", "-o", "proof.bin", "--write-key", "--write-statement");
        if (code != 0) {
            return code;
        }
        System.out.println();
        code = Main.run("verify", "proof.bin", "--key", "proof.key", "--expect", "proof.statement.json");
        if (code != 0) {
            return code;
        }
        System.out.println();
        return Main.run("inspect", "proof.bin");
    }
}
