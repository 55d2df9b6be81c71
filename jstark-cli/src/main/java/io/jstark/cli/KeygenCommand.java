package io.jstark.cli;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.TableShape;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.PreprocessedCache;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Security;
import io.jstark.protocol.StatementRules;
import io.jstark.protocol.VerifyingKey;
import io.jstark.prover.memory.TableDimensions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jstark keygen}: writes the verifying key of an example for one option set. */
@Command(
        name = "keygen",
        mixinStandardHelpOptions = true,
        description = {
            "Write the verifying key of an example's table definitions: their digests, the options it accepts (exactly the "
                    + "ones given) and the pinned commitments of preprocessed columns under them.",
            "The options are refused as 'jstark prove --example EXAMPLE' (at its default size) refuses them: a key no proof can "
                    + "satisfy is not written.",
            "Ship it to verifiers: 'jstark verify PROOF --key KEY --expect STATEMENT' trusts it instead of the proof."
        })
public final class KeygenCommand implements Callable<Integer> {
    @Option(
            names = {"-e", "--example"},
            required = true,
            description = "Example whose table definitions the key is for: " + "${COMPLETION-CANDIDATES}.",
            completionCandidates = ExampleOptions.ExampleNames.class)
    String example;

    @Mixin
    ProofOptionsMixin proofOptions;

    @Option(
            names = "--min-security",
            description = "Conjectured bits a proof must reach at its heights (default: the bits the "
                    + "options require); at most what the options give.")
    Integer minimumSecurity;

    @Option(
            names = {"-o", "--output"},
            required = true,
            paramLabel = "FILE",
            description = "Key file to write; an existing one is " + "refused unless --force.")
    Path output;

    @Option(names = "--force", description = "Replace the key file if it exists.")
    boolean force;

    @Mixin
    CacheOptions cache;

    @Override
    public Integer call() throws Exception {
        Example e = Examples.byName(example);
        ProofOptions options = proofOptions.options();
        // the one check 'prove' makes before any work (JstarkProver.checkStatement): statement rules, then security
        Security.Report security = StatementRules.requireProvable(
                TableDimensions.claims(TableShape.dimensions(e.shapes(e.defaultLogSize()))), options);
        if (minimumSecurity != null && (minimumSecurity < 0 || minimumSecurity > security.conjecturedBits())) {
            throw new Main.UsageException("--min-security " + minimumSecurity + ": must be in 0.."
                    + security.conjecturedBits() + ", the conjectured bits these options give (limited by "
                    + security.limitingTerm() + "); no proof reaches more");
        }
        ProveOutputs.requireWritableFile(output, "-o");
        if (Files.exists(output) && !force) {
            throw new Main.UsageException(
                    "-o " + output + " exists: a verifying key is what verifiers trust, so keygen does not replace "
                            + "one unasked; give --force to replace it, or another file");
        }
        // a key for zero-knowledge options requires it: a proof without it is refused naming the option
        VerifyingKey.Builder builder =
                VerifyingKey.builder(e.airs()).accept(options).requireZeroKnowledge(options.zeroKnowledge());
        PreprocessedCache disk = cache.cache();
        if (disk != null) {
            builder.pinnedRoots(disk.roots(WorkerPool.common()));
        }
        if (minimumSecurity != null) {
            builder.minimumSecurityBits(minimumSecurity);
        }
        VerifyingKey key = builder.build();
        key.write(output);
        System.out.printf(
                "verifying key of example '%s' (%d table definitions) written to %s (%,d bytes, id %s)%n",
                e.name(), key.airs().size(), output, Files.size(output), key.idHex());
        System.out.println("it accepts " + key.accepted());
        return 0;
    }
}
