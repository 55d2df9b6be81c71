package io.jstark.cli;

import picocli.CommandLine.Command;

/**
 * {@code jstark bench}: measured proving over sizes ({@link BenchScaling}), the cost of the instrumentation
 * ({@link BenchOverhead}) and the table-parallelism sweep ({@link BenchParallelism}); what they report alike is in
 * {@link BenchFigures}.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Benchmarks of whole proofs.",
        subcommands = {BenchScaling.class, BenchOverhead.class, BenchParallelism.class})
public final class BenchCommand implements java.util.concurrent.Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        return Main.missingSubcommand(spec);
    }
}
