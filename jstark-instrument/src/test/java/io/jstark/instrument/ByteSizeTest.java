package io.jstark.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Byte counts as flags, variables and reports write them: one parser, one formatter. */
class ByteSizeTest {
    @ParameterizedTest
    @CsvSource({
        "1073741824, 1073741824",
        "512M, 536870912",
        "2g, 2147483648",
        "2G, 2147483648",
        "1k, 1024",
        "7K, 7168",
        "3t, 3298534883328",
        "0, 0",
        "UNLIMITED, 9223372036854775807",
        "' 64m ', 67108864",
        "8388607T, 9223370937343148032"
    })
    void byteSizesParse(String text, long bytes) {
        assertThat(ByteSize.parse(text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "M",
                "12X",
                "1.5G",
                "-5",
                "-5M",
                "M5",
                "10 MB",
                "10MB",
                "5KiB",
                "0x10",
                "1e9",
                "9223372036854775808",
                "9007199254740992K",
                "8388608T"
            })
    void nonsenseByteSizesAreRejectedNamingTheText(String text) {
        assertThatThrownBy(() -> ByteSize.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "'");
    }

    @Property(tries = 300)
    void suffixesArePowersOf1024(@ForAll @LongRange(min = 0, max = 1L << 22) long count) {
        assertThat(ByteSize.parse(Long.toString(count))).isEqualTo(count);
        assertThat(ByteSize.parse(count + "k")).isEqualTo(count << 10);
        assertThat(ByteSize.parse(count + "M")).isEqualTo(count << 20);
        assertThat(ByteSize.parse(count + "g")).isEqualTo(count << 30);
        assertThat(ByteSize.parse(count + "T")).isEqualTo(count << 40);
    }

    @Test
    void formatsForPeople() {
        assertThat(ByteSize.format(512)).isEqualTo("512 B");
        assertThat(ByteSize.format(1536)).isEqualTo("1.5 KiB");
        assertThat(ByteSize.format(2L << 30)).isEqualTo("2.0 GiB");
        assertThat(ByteSize.format(Long.MAX_VALUE)).isEqualTo("unlimited");
    }

    @Test
    void anOptionsValueParsesBackToAtLeastTheCount() {
        assertThat(ByteSize.asOption(545L << 20)).isEqualTo("545M");
        assertThat(ByteSize.asOption(2L << 30)).isEqualTo("2G");
        assertThat(ByteSize.asOption((1L << 20) + 1)).isEqualTo("2M");
        for (long bytes : new long[] {1, 1023, 1L << 20, (3L << 30) + 5, 123_456_789}) {
            assertThat(ByteSize.parse(ByteSize.asOption(bytes)))
                    .isGreaterThanOrEqualTo(bytes)
                    .isLessThan(bytes + (1L << 20));
        }
    }

    @Test
    void aMibColumnHasOneDecimalAndADashForNone() {
        assertThat(ByteSize.mib(1536L << 10)).isEqualTo("1.5");
        assertThat(ByteSize.mib(1234L << 20)).isEqualTo("1,234.0");
        assertThat(ByteSize.mib(-1)).isEqualTo("-");
    }
}
