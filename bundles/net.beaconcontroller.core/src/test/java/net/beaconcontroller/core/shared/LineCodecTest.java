package net.beaconcontroller.core.shared;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

class LineCodecTest {
    private final SharedCodec<String> codec = SharedCodec.ofLines(1, Function.identity(), Function.identity());

    private byte[] write(String line) throws IOException {
        var bytes = new ByteArrayOutputStream();
        try (var out = new DataOutputStream(bytes)) {
            codec.write(line, out);
        }
        return bytes.toByteArray();
    }

    private String read(byte[] bytes) throws IOException {
        var in = new DataInputStream(new ByteArrayInputStream(bytes));
        var line = codec.read(in);
        assertEquals(0, in.available(), "bytes left over");
        return line;
    }

    private static byte[] writeUtf(String line) throws IOException {
        var bytes = new ByteArrayOutputStream();
        try (var out = new DataOutputStream(bytes)) {
            out.writeUTF(line);
        }
        return bytes.toByteArray();
    }

    @Test
    void aLineThatFitsIsWrittenAsEarlierVersionsWroteIt() throws IOException {
        var line = "flow-1 00:00:00:00:00:00:00:01 in_port=1 output=2 \u00e9\u4e2d\0";
        assertArrayEquals(writeUtf(line), write(line));
        assertEquals(line, read(writeUtf(line)));
        var longest = "x".repeat(0xffff);
        assertArrayEquals(writeUtf(longest), write(longest));
    }

    @Test
    void aLineOfAnyLengthComesBackWhole() throws IOException {
        // Past 65,535 bytes, including three-byte characters and a surrogate pair across the pieces' border.
        var emoji = new StringBuilder("a".repeat(21844)).append("\ud83d\ude00").append("\u4e2d".repeat(30000));
        for (var line : new String[] {"x".repeat(70_036), "x".repeat(0x10000), emoji.toString(),
                "output=1,".repeat(9000)}) {
            assertEquals(line, read(write(line)));
        }
    }

    @Test
    void aDamagedLongLineIsAnErrorNotAValue() throws IOException {
        var bytes = write("y".repeat(100_000));
        var cut = Arrays.copyOf(bytes, bytes.length - 10);
        assertThrows(EOFException.class, () -> read(cut));
        assertThrows(IOException.class, () -> read(new byte[] {0, 0, 0, 0, 0, 1}));
    }
}
