package io.jstark.protocol;

import io.jstark.crypto.hash.UnknownHashException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads a proof in the layout of {@link ProofFormat}, treating every byte as hostile: the length against the
 * caller's checks before the first byte, the options and the table headers as soon as they are read, then the body
 * ({@link ProofBody}) within the bound the headers leave, and nothing after it.
 */
final class ProofReader {
    private ProofReader() {}

    /**
     * The proof in {@code stream}, or in {@code array} where that is not null, of {@code length} bytes (-1 where a
     * stream's length is unknown); its parts are counted into {@code sizes}, or into a throwaway where that is null.
     */
    static Proof read(InputStream stream, byte[] array, long length, ReadChecks checks, ProofSizes sizes)
            throws ProofRejectedException, IOException {
        try {
            return parse(stream, array, length, checks, sizes != null ? sizes : new ProofSizes());
        } catch (OutOfMemoryError e) {
            // Within generous checks (the format's own limits, wide expected heights) a proof may hold more than
            // this heap: its arrays are garbage once this unwinds, and the caller gets a rejection, not an Error.
            throw ProofRejectedException.beyondHeap();
        }
    }

    private static Proof parse(InputStream stream, byte[] array, long length, ReadChecks checks, ProofSizes sizes)
            throws ProofRejectedException, IOException {
        if (length >= 0) {
            refuseLength(length, checks.maxBytes());
        }
        ProofInput in = array != null
                ? ProofInput.of(array)
                : ProofInput.of(stream, length >= 0 ? length : checks.maxBytes(), length >= 0);
        ProofFormat.Header head = readHeader(in, checks);
        ProofOptions options = head.options();
        List<Proof.TableHeader> tables = head.tables();
        long mostWithTables = checks.checkTables(options, tables);
        if (length >= 0) {
            refuseLength(length, mostWithTables);
        }
        in.limit(mostWithTables);
        sizes.add(null, "header", in.position());
        Proof proof = ProofBody.readBody(in, options, tables, sizes);
        in.requireEnd();
        return proof;
    }

    /** The proof in the file {@code file}, refused by its length, unopened, where that is more than the checks allow. */
    static Proof read(Path file, ReadChecks checks, ProofSizes sizes) throws ProofRejectedException, IOException {
        long length = Files.size(file);
        refuseLength(length, checks.maxBytes());
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, null, length, checks, sizes);
        }
    }

    /** TOO_LARGE where {@code length} is more than {@code most}. */
    private static void refuseLength(long length, long most) throws ProofRejectedException {
        if (length > most) {
            throw new ProofRejectedException(
                    ProofRejectedException.Reason.TOO_LARGE,
                    null,
                    "the proof has " + length + " bytes, more than the " + most
                            + " of the largest proof accepted here");
        }
    }

    /** The options and table headers of the proof file {@code file}, within the format's own limits. */
    static ProofFormat.Header readHeader(Path file) throws ProofRejectedException, IOException {
        long length = Files.size(file);
        refuseLength(length, ProofFormat.MAX_PROOF_BYTES);
        try (InputStream in = Files.newInputStream(file)) {
            return readHeader(ProofInput.of(in, length, true), ProofFormat.FORMAT_LIMITS);
        } catch (OutOfMemoryError e) {
            throw ProofRejectedException.beyondHeap();
        }
    }

    private static ProofFormat.Header readHeader(ProofInput in, ReadChecks checks)
            throws ProofRejectedException, IOException {
        byte[] magic = in.bytes(4, "magic");
        if (!Arrays.equals(magic, ProofFormat.MAGIC)) {
            throw new ProofRejectedException(
                    ProofRejectedException.Reason.MALFORMED,
                    null,
                    "not a jstark proof: the file does not start with \"JSTK\" (byte offset 0)");
        }
        long versionAt = in.position();
        int version = in.u16("version");
        if (version != ProofFormat.VERSION) {
            // another version is refused by its number, never misread as this one
            throw new ProofRejectedException(
                    ProofRejectedException.Reason.UNSUPPORTED,
                    null,
                    "proof format version " + version + " is not supported; this verifier reads version "
                            + ProofFormat.VERSION + " (byte offset " + versionAt + ")");
        }
        ProofOptions options = readOptions(in);
        checks.checkOptions(options);
        int tableCount = in.u16("table count");
        if (tableCount == 0 || tableCount > ProofFormat.MAX_TABLES) {
            throw in.malformed("table count " + tableCount + " out of range 1.." + ProofFormat.MAX_TABLES);
        }
        List<Proof.TableHeader> tables = new ArrayList<>(tableCount);
        for (int i = 0; i < tableCount; i++) {
            tables.add(readTableHeader(in, i));
        }
        return new ProofFormat.Header(options, tables);
    }

    private static Proof.TableHeader readTableHeader(ProofInput in, int i) throws ProofRejectedException, IOException {
        String name = in.name("table " + i + " name");
        String air = in.name("table " + i + " air name");
        int logHeight = in.u8("table " + i + " height");
        Optional<String> height = NameAndHeightRules.heightViolation(logHeight, logHeight);
        if (height.isPresent()) {
            throw in.malformed("table '" + name + "': " + height.get());
        }
        int publicCount = in.u16("public input count");
        in.require((long) publicCount * 8, "public inputs of table '" + name + "'");
        long[] publicInputs = new long[publicCount];
        for (int k = 0; k < publicCount; k++) {
            publicInputs[k] = in.field("public input");
        }
        byte[] preprocessed = in.flag("preprocessed flag") ? in.bytes(ProofFormat.DIGEST, "preprocessed root") : null;
        return new Proof.TableHeader(name, air, logHeight, publicInputs, preprocessed);
    }

    private static ProofOptions readOptions(ProofInput in) throws ProofRejectedException, IOException {
        long at = in.position();
        byte[] encoded = in.bytes(ProofFormat.OPTIONS_BYTES, "options");
        try {
            return OptionsCodec.decode(encoded, 0, at);
        } catch (UnknownHashException e) {
            throw new ProofRejectedException(
                    ProofRejectedException.Reason.UNSUPPORTED,
                    null,
                    "unknown hash id " + (encoded[OptionsCodec.HASH_ID_AT] & 0xFF) + " at byte offset "
                            + (at + OptionsCodec.HASH_ID_AT));
        } catch (InvalidOptionsException e) {
            throw new ProofRejectedException(
                    ProofRejectedException.Reason.MALFORMED,
                    null,
                    "options at byte offset " + at + ": " + e.getMessage());
        }
    }

    /**
     * A tree opening ({@link ProofWriter#opening}) of a tree of 2^logLeaves leaves: its counts checked against
     * {@code shape} and the bytes left before anything is allocated.
     */
    static Proof.TreeOpening readOpening(ProofInput in, String what, SectionShape shape, int logLeaves)
            throws ProofRejectedException, IOException {
        int leaves = in.u32(what + " opened leaf count");
        int perLeaf = in.u32(what + " elements per leaf");
        if (leaves < 0 || perLeaf < 0) {
            throw in.malformed(what + " opening has a negative count");
        }
        int mostLeaves = shape.maxLeaves(logLeaves);
        if (leaves > mostLeaves) {
            // every opened leaf is a distinct query and a leaf of the tree
            throw in.malformed(what + " opening has " + leaves + " leaves, at most " + mostLeaves + " are possible ("
                    + shape.queries() + " queries, a tree of 2^" + logLeaves + " leaves)");
        }
        if (perLeaf == 0 && leaves != 0) {
            // an empty leaf costs no bytes, so the length check below could not bound the leaf count
            throw in.malformed(what + " opening has " + leaves + " leaves of no elements");
        }
        in.require(8L * leaves * perLeaf, what + " opened leaves (" + leaves + " x " + perLeaf + " elements)");
        long[][] values = new long[leaves][];
        String element = what + " leaf element";
        for (int l = 0; l < leaves; l++) {
            long[] leaf = new long[perLeaf];
            for (int e = 0; e < perLeaf; e++) {
                leaf[e] = in.field(element);
            }
            values[l] = leaf;
        }
        int siblings = in.u32(what + " sibling count");
        long mostSiblings = shape.maxSiblings(logLeaves);
        if (siblings < 0 || siblings > mostSiblings) {
            throw in.malformed(what + " opening has " + Integer.toUnsignedString(siblings) + " siblings, at most "
                    + mostSiblings + " are possible");
        }
        in.require((long) siblings * ProofFormat.DIGEST, what + " siblings");
        byte[][] nodes = new byte[siblings][];
        String sibling = what + " sibling";
        for (int s = 0; s < siblings; s++) {
            nodes[s] = in.bytes(ProofFormat.DIGEST, sibling);
        }
        return new Proof.TreeOpening(values, nodes);
    }
}
