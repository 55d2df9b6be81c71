package io.jstark.crypto.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.math.field.Goldilocks;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class TranscriptPropertiesTest {
    @Property(tries = 100)
    void replayingTheSameMessagesReplaysTheChallenges(
            @ForAll @Size(max = 8) long[] elements,
            @ForAll byte[] bytes,
            @ForAll @IntRange(min = 0, max = 2) int hashIndex,
            @ForAll @IntRange(min = 0, max = 31) int logRange,
            @ForAll @IntRange(min = 0, max = 40) int count) {
        Hasher h = Hashers.all().get(hashIndex);
        long[] canonical = new long[elements.length];
        for (int i = 0; i < elements.length; i++) {
            canonical[i] = Goldilocks.reduce(elements[i]);
        }
        Transcript a = new Transcript(h, "prop");
        Transcript b = new Transcript(h, "prop");
        for (Transcript t : new Transcript[] {a, b}) {
            t.absorbFields(canonical);
            t.absorbBytes(bytes);
        }
        int[] ia = a.sampleIndices(count, logRange);
        assertThat(b.sampleIndices(count, logRange)).containsExactly(ia);
        for (int index : ia) {
            assertThat(index).isBetween(0, (int) ((1L << logRange) - 1));
        }
        assertThat(a.sampleExt()).isEqualTo(b.sampleExt());

        // changing one byte of the absorbed message changes the challenge
        if (bytes.length > 0) {
            Transcript c = new Transcript(h, "prop");
            c.absorbFields(canonical);
            byte[] changed = bytes.clone();
            changed[changed.length - 1] ^= 1;
            c.absorbBytes(changed);
            Transcript d = new Transcript(h, "prop");
            d.absorbFields(canonical);
            d.absorbBytes(bytes);
            assertThat(c.sampleField()).isNotEqualTo(d.sampleField());
        }
    }
}
