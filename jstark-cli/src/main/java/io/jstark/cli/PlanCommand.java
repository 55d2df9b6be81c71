package io.jstark.cli;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.TableShape;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.storage.StoragePlan;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jstark plan}: the memory prediction and storage plan of a workload under the given options, made
 * from the table shapes alone (no trace is generated, nothing is proven). Refusals (budget too small even
 * with everything spilled, spill directory unusable or too small) are the same typed errors
 * {@code prove} would raise before its heavy work.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description =
                "Predict the memory a proof needs, per table and phase, and where its buffers would live (RAM or spill files).")
public final class PlanCommand implements Callable<Integer> {
    @Mixin
    ExampleOptions example;

    @Mixin
    ProofOptionsMixin proofOptions;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() {
        Example e = example.resolve(System.out);
        int logSize = example.logSize(e);
        List<TableDimensions> tables = TableShape.dimensions(e.shapes(logSize));
        try (JstarkProver prover = run.configure(Jstark.prover(e.airs()).options(proofOptions.options()))
                .build()) {
            StoragePlan plan = prover.plan(tables);
            System.out.printf(
                    "workload '%s' (%s = %d): %d tables; k = %d tables at once; memory budget %s; %d worker threads%n",
                    e.name(),
                    e.sizeParameter(),
                    logSize,
                    tables.size(),
                    prover.settings().tableParallelism(),
                    plan.budgetText(),
                    prover.pool().parallelism());
            for (String line : plan.lines()) {
                System.out.println(line);
            }
            return 0;
        }
    }
}
