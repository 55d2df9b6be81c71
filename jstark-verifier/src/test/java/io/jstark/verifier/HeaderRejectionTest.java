package io.jstark.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks made while a proof is read, before any cryptographic work: the format (MALFORMED, UNSUPPORTED, naming
 * the byte offset), the size (TOO_LARGE), the options (UNACCEPTED_OPTIONS, INSECURE_OPTIONS), the statement and the
 * pinned preprocessed commitments. Each starts from a valid hand-built proof and changes one field of its header,
 * at the offset {@link ProofFormat}'s layout gives.
 */
class HeaderRejectionTest {
    /** "JSTK", u16 version, the options, u16 table count. */
    private static final int FIRST_TABLE_AT = 4 + 2 + ProofFormat.OPTIONS_BYTES + 2;

    private static final int VERSION_AT = 4;
    private static final int HASH_ID_AT = 4 + 2 + 5;

    private final HandBuiltProof counter = TinyTables.counterProof();

    @Test
    void bytesNotStartingWithTheMagicAreMalformedAtOffsetZero() {
        byte[] bytes = counter.bytes();
        bytes[0] = 'X';

        ProofRejectedException e = reject(bytes);

        assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
        assertThat(e.getMessage()).contains("byte offset 0");
    }

    @Test
    void aPublicInputThatIsNoFieldElementIsMalformedAtItsOffset() {
        byte[] bytes = counter.bytes();
        int at = publicInputOffset("counter", "counter");
        assertThat(readU64(bytes, at)).as("the public input's bytes").isEqualTo(5);
        Arrays.fill(bytes, at, at + 8, (byte) 0xFF);

        ProofRejectedException e = reject(bytes);

        assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
        assertThat(e.getMessage()).contains("not a canonical field element").contains("byte offset " + at);
    }

    @Test
    void aProofCutShortIsMalformed() {
        byte[] bytes = counter.bytes();

        ProofRejectedException e = reject(Arrays.copyOf(bytes, bytes.length - 1));

        assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
        assertThat(e.getMessage()).contains("truncated");
    }

    @Test
    void bytesAfterTheLastPartAreMalformed() {
        byte[] bytes = counter.bytes();

        ProofRejectedException e = reject(Arrays.copyOf(bytes, bytes.length + 1));

        assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
        assertThat(e.getMessage()).contains("1 unexpected bytes").contains("byte offset " + bytes.length);
    }

    @Test
    void anotherFormatVersionIsUnsupportedNamingTheVersionAndItsOffset() {
        byte[] bytes = counter.bytes();
        assertThat(bytes[VERSION_AT]).isEqualTo((byte) ProofFormat.VERSION);
        bytes[VERSION_AT] = 3;

        ProofRejectedException e = reject(bytes);

        assertThat(e.reason()).isEqualTo(Reason.UNSUPPORTED);
        assertThat(e.getMessage()).contains("version 3").contains("byte offset " + VERSION_AT);
    }

    @Test
    void anUnknownHashIdIsUnsupportedNamingItsOffset() {
        byte[] bytes = counter.bytes();
        bytes[HASH_ID_AT] = (byte) 200;

        ProofRejectedException e = reject(bytes);

        assertThat(e.reason()).isEqualTo(Reason.UNSUPPORTED);
        assertThat(e.getMessage()).contains("unknown hash id 200 at byte offset " + HASH_ID_AT);
    }

    @Test
    void inputLongerThanTheLargestAcceptedProofIsTooLargeUnread() {
        long most = StarkVerifier.maxProofBytes(counter.key(), counter.statement());
        byte[] longer = new byte[Math.toIntExact(most + 1)];

        ProofRejectedException e = reject(longer);

        // all zeros: had it been read, the magic would have been refused as MALFORMED
        assertThat(e.reason()).isEqualTo(Reason.TOO_LARGE);
        assertThat(e.getMessage()).contains((most + 1) + " bytes");
    }

    @Test
    void aFileLongerThanTheLargestAcceptedProofIsTooLargeUnread(@TempDir Path dir)
            throws IOException, ProofRejectedException {
        long most = StarkVerifier.maxProofBytes(counter.key(), counter.statement());
        Path file = dir.resolve("long.proof");
        byte[] bytes = counter.bytes();
        // a valid proof followed by zeros: read, it would be refused as MALFORMED after its last part
        Files.write(file, Arrays.copyOf(bytes, Math.toIntExact(most + 1)));

        ProofRejectedException e = Rejections.of(() -> {
            try {
                return StarkVerifier.verify(counter.key(), counter.statement(), file);
            } catch (IOException io) {
                throw new UncheckedIOException(io);
            }
        });

        assertThat(e.reason()).isEqualTo(Reason.TOO_LARGE);
        Files.write(file, bytes);
        assertThat(StarkVerifier.verify(counter.key(), counter.statement(), file)
                        .tables())
                .hasSize(1);
    }

    @Test
    void aDescribedProofOfMoreTablesThanTheLimitsIsTooLarge() {
        Proof.TableHeader h = counter.proof().tables().getFirst();
        Proof twoTables = counter.proof()
                .withTables(
                        List.of(h, new Proof.TableHeader("again", h.airName(), h.logHeight(), h.publicInputs(), null)));

        ProofRejectedException e = Rejections.of(() -> StarkVerifier.verifyAndDescribe(
                counter.key(), ProofFormat.write(twoTables), new DescribeLimits(1, ProofFormat.MAX_LOG_HEIGHT)));

        assertThat(e.reason()).isEqualTo(Reason.TOO_LARGE);
        assertThat(e.getMessage()).contains("2 tables");
    }

    @Test
    void aDescribedProofOfATallerTableThanTheLimitsIsTooLargeNamingIt() {
        ProofRejectedException e = Rejections.of(() -> StarkVerifier.verifyAndDescribe(
                counter.key(),
                counter.bytes(),
                new DescribeLimits(DescribeLimits.DEFAULT_MAX_TABLES, TinyTables.LOG_HEIGHT - 1)));

        assertThat(e.reason()).isEqualTo(Reason.TOO_LARGE);
        assertThat(e.table()).isEqualTo("counter");
    }

    @Test
    void optionsTheKeyDoesNotAcceptAreRefused() {
        VerifyingKey other = VerifyingKey.builder(List.of(counter.air()))
                .accept(TinyTables.OPTIONS.withQueries(3))
                .build();

        ProofRejectedException e = Rejections.of(other, counter.statement(), counter.bytes());

        assertThat(e.reason()).isEqualTo(Reason.UNACCEPTED_OPTIONS);
        assertThat(e.getMessage()).contains("not accepted by the verifying key");
    }

    @Test
    void otherPublicInputsThanExpectedAreAnotherStatementNamingTheTable() {
        Statement expected = Statement.of(Statement.table("counter", counter.air(), TinyTables.LOG_HEIGHT, 6));

        ProofRejectedException e = Rejections.of(counter.key(), expected, counter.bytes());

        assertThat(e.reason()).isEqualTo(Reason.STATEMENT);
        assertThat(e.table()).isEqualTo("counter");
        assertThat(e.getMessage()).contains("public inputs");
    }

    @Test
    void anotherHeightThanExpectedIsAnotherStatementNamingTheTable() {
        Statement expected = Statement.of(Statement.tableBetween("counter", counter.air(), 3, 4, 5));

        ProofRejectedException e = Rejections.of(counter.key(), expected, counter.bytes());

        assertThat(e.reason()).isEqualTo(Reason.STATEMENT);
        assertThat(e.table()).isEqualTo("counter");
        assertThat(e.getMessage()).contains("height 2^" + TinyTables.LOG_HEIGHT);
    }

    @Test
    void aDescribedProofOfADefinitionTheKeyLacksIsAnotherStatementNamingTheTable() {
        VerifyingKey stampedOnly = VerifyingKey.builder(List.of(TinyTables.stamped()))
                .accept(TinyTables.OPTIONS)
                .build();

        ProofRejectedException e = Rejections.of(() -> StarkVerifier.verifyAndDescribe(stampedOnly, counter.bytes()));

        assertThat(e.reason()).isEqualTo(Reason.STATEMENT);
        assertThat(e.table()).isEqualTo("counter");
        assertThat(e.getMessage()).contains("not in the verifying key");
    }

    @Test
    void aDescribedProofNamingTwoTablesAlikeBreaksAStatementRule() {
        Proof.TableHeader h = counter.proof().tables().getFirst();
        Proof twice = counter.proof().withTables(List.of(h, h));

        ProofRejectedException e =
                Rejections.of(() -> StarkVerifier.verifyAndDescribe(counter.key(), ProofFormat.write(twice)));

        assertThat(e.reason()).isEqualTo(Reason.STATEMENT);
        assertThat(e.table()).isEqualTo("counter");
        assertThat(e.getMessage()).contains("two tables have this name");
    }

    @Test
    void optionsClaimingMoreSecurityThanTheyGiveAreInsecure() {
        ProofOptions claiming = TinyTables.OPTIONS.withRequiredSecurityBits(100);
        VerifyingKey key =
                VerifyingKey.builder(List.of(counter.air())).accept(claiming).build();

        ProofRejectedException e = Rejections.of(
                key,
                counter.statement(),
                ProofFormat.write(ProofEdit.of(counter.proof(), edit -> edit.options = claiming)));

        assertThat(e.reason()).isEqualTo(Reason.INSECURE_OPTIONS);
        assertThat(e.getMessage()).contains("claims 100 bits");
    }

    @Test
    void optionsGivingLessSecurityThanTheKeyRequiresAreInsecure() {
        VerifyingKey demanding = VerifyingKey.builder(List.of(counter.air()))
                .accept(TinyTables.OPTIONS)
                .minimumSecurityBits(50)
                .build();

        ProofRejectedException e = Rejections.of(demanding, counter.statement(), counter.bytes());

        assertThat(e.reason()).isEqualTo(Reason.INSECURE_OPTIONS);
        assertThat(e.getMessage()).contains("requires 50");
    }

    @Test
    void aPreprocessedCommitmentOtherThanThePinnedOneIsRefusedNamingTheTable() {
        HandBuiltProof stamped = TinyTables.stampedProof();
        Proof.TableHeader h = stamped.proof().tables().getFirst();
        byte[] root = h.preprocessedRoot();
        root[0] ^= 1;

        ProofRejectedException e =
                reject(stamped, new Proof.TableHeader(h.name(), h.airName(), h.logHeight(), h.publicInputs(), root));

        assertThat(e.reason()).isEqualTo(Reason.PREPROCESSED_COMMITMENT);
        assertThat(e.table()).isEqualTo("stamped");
        assertThat(e.getMessage()).contains("differs from the one pinned");
    }

    @Test
    void aMissingPreprocessedCommitmentIsRefusedNamingTheTable() {
        HandBuiltProof stamped = TinyTables.stampedProof();
        Proof.TableHeader h = stamped.proof().tables().getFirst();

        ProofRejectedException e =
                reject(stamped, new Proof.TableHeader(h.name(), h.airName(), h.logHeight(), h.publicInputs(), null));

        assertThat(e.reason()).isEqualTo(Reason.PREPROCESSED_COMMITMENT);
        assertThat(e.table()).isEqualTo("stamped");
    }

    @Test
    void aPreprocessedCommitmentForATableWithoutPreprocessedColumnsIsRefusedNamingTheTable() {
        Proof.TableHeader h = counter.proof().tables().getFirst();

        ProofRejectedException e = reject(
                counter, new Proof.TableHeader(h.name(), h.airName(), h.logHeight(), h.publicInputs(), new byte[32]));

        assertThat(e.reason()).isEqualTo(Reason.PREPROCESSED_COMMITMENT);
        assertThat(e.table()).isEqualTo("counter");
    }

    private ProofRejectedException reject(byte[] bytes) {
        return Rejections.of(counter.key(), counter.statement(), bytes);
    }

    private static ProofRejectedException reject(HandBuiltProof built, Proof.TableHeader header) {
        return Rejections.of(
                built.key(), built.statement(), ProofFormat.write(built.proof().withTables(List.of(header))));
    }

    /** A table's first public input: its name and definition name (u16 length + UTF-8), u8 height, u16 count. */
    private static int publicInputOffset(String name, String airName) {
        return FIRST_TABLE_AT + 2 + utf8(name) + 2 + utf8(airName) + 1 + 2;
    }

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static long readU64(byte[] bytes, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (bytes[at + i] & 0xFF);
        }
        return v;
    }
}
