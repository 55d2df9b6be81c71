package io.jstark.cluster;

import com.google.protobuf.ByteString;
import io.jstark.air.AirDigest;
import io.jstark.air.trace.TableTrace;
import io.jstark.cluster.wire.Ext3Value;
import io.jstark.cluster.wire.Frame;
import io.jstark.cluster.wire.Options;
import io.jstark.cluster.wire.TableClaim;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ClaimedTable;
import java.util.ArrayList;
import java.util.List;

/** The conversions between the prover's values and the worker protocol's messages, the same on both sides. */
final class Wire {
    /** Rows of a streamed trace or DEEP sum per message: 16K rows of up to a few dozen columns stay far below gRPC's 4 MiB. */
    static final int CHUNK_ROWS = 1 << 14;
    /** Leaf hashes per message (32 bytes each: 1 MiB). */
    static final int CHUNK_LEAVES = 1 << 15;

    private Wire() {}

    static Ext3Value ext3(Ext3 v) {
        return Ext3Value.newBuilder().setC0(v.c0()).setC1(v.c1()).setC2(v.c2()).build();
    }

    static Ext3 ext3(Ext3Value v) {
        return new Ext3(v.getC0(), v.getC1(), v.getC2());
    }

    static Options options(ProofOptions o) {
        return Options.newBuilder()
                .setLogBlowup(o.logBlowup())
                .setQueries(o.queries())
                .setGrindingBits(o.grindingBits())
                .setLogFoldingFactor(o.logFoldingFactor())
                .setLogFinalDegree(o.logFinalDegree())
                .setHash(o.hash())
                .setRequiredSecurityBits(o.requiredSecurityBits())
                .setZeroKnowledge(o.zeroKnowledge())
                .build();
    }

    static ProofOptions options(Options o) {
        return new ProofOptions(
                        o.getLogBlowup(),
                        o.getQueries(),
                        o.getGrindingBits(),
                        o.getLogFoldingFactor(),
                        o.getLogFinalDegree(),
                        o.getHash(),
                        o.getRequiredSecurityBits())
                .withZeroKnowledge(o.getZeroKnowledge());
    }

    /** What the coordinator claims of a table: the worker checks its own table against it. */
    static TableClaim claim(TableTrace t) {
        return claim(ClaimedTable.of(t));
    }

    /** A table's claim on the wire (for a claim whose public inputs are not known yet, none). */
    static TableClaim claim(ClaimedTable t) {
        TableClaim.Builder b = TableClaim.newBuilder()
                .setName(t.name())
                .setAirName(t.air().name())
                .setAirDigest(ByteString.copyFrom(AirDigest.of(t.air())))
                .setLogHeight(t.logHeight());
        for (long v : t.publicInputs()) {
            b.addPublicInputs(v);
        }
        return b.build();
    }

    /** {@return the public inputs of a claim on the wire} */
    static long[] publicInputs(TableClaim claim) {
        return claim.getPublicInputsList().stream().mapToLong(Long::longValue).toArray();
    }

    static Frame frame(int table, OodFrame f) {
        Frame.Builder b = Frame.newBuilder().setTable(table);
        for (Ext3[] part : parts(f)) {
            b.addPartSizes(part.length);
            for (Ext3 v : part) {
                b.addValues(ext3(v));
            }
        }
        return b.build();
    }

    static OodFrame frame(Frame f) {
        List<Ext3[]> parts = new ArrayList<>(7);
        int at = 0;
        for (int size : f.getPartSizesList()) {
            Ext3[] part = new Ext3[size];
            for (int i = 0; i < size; i++) {
                part[i] = ext3(f.getValues(at++));
            }
            parts.add(part);
        }
        if (parts.size() != 7 || at != f.getValuesCount()) {
            throw new IllegalArgumentException("a frame of table " + f.getTable() + " has " + parts.size()
                    + " parts and " + f.getValuesCount() + " values, not 7 parts of " + at);
        }
        return new OodFrame(
                parts.get(0), parts.get(1), parts.get(2), parts.get(3), parts.get(4), parts.get(5), parts.get(6));
    }

    private static List<Ext3[]> parts(OodFrame f) {
        return List.of(
                f.preprocessedAtZ(),
                f.mainAtZ(),
                f.auxAtZ(),
                f.preprocessedAtZNext(),
                f.mainAtZNext(),
                f.auxAtZNext(),
                f.compositionAtZ());
    }
}
