package io.jstark.cli;

import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.VerifyingKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jstark keygen}: writes the verifying key of an example for one option set. */
@Command(name = "keygen", mixinStandardHelpOptions = true, description = {
        "Write the verifying key of an example's table definitions: their digests, the options it accepts (exactly the "
                + "ones given) and the pinned commitments of preprocessed columns under them.",
        "Ship it to verifiers: 'jstark verify PROOF --key KEY --expect STATEMENT' trusts it instead of the proof."})
public final class KeygenCommand implements Callable<Integer> {
    @Option(names = {"-e", "--example"}, description = "Example whose table definitions the key is for (default: ${DEFAULT-VALUE}).",
            defaultValue = "vm", completionCandidates = ExampleOptions.ExampleNames.class)
    String example;

    @Mixin
    ProofOptionsMixin proofOptions;

    @Option(names = "--min-security", description = "Conjectured bits a proof must reach at its heights (default: the bits the "
            + "options require).")
    Integer minimumSecurity;

    @Option(names = {"-o", "--output"}, description = "Key file (default: EXAMPLE.key).")
    Path output;

    @Override
    public Integer call() throws Exception {
        Example e = Examples.byName(example);
        ProofOptions options = proofOptions.options();
        VerifyingKey.Builder builder = VerifyingKey.builder(e.airs()).accept(options);
        if (minimumSecurity != null) {
            builder.minimumSecurityBits(minimumSecurity);
        }
        Path file = output != null ? output : Path.of(e.name() + ".key");
        ProveOutputs.createParent(file);
        if (Files.isDirectory(file)) {
            throw new Main.UsageException("-o " + file + " is a directory; give a file name");
        }
        VerifyingKey key = builder.build();
        key.write(file);
        System.out.printf("verifying key of example '%s' (%d table definitions) written to %s (%,d bytes, id %s)%n", e.name(),
                key.airs().size(), file, Files.size(file), key.idHex());
        System.out.println("it accepts " + key.accepted());
        return 0;
    }
}
