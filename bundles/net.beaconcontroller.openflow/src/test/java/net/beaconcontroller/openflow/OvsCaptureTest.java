package net.beaconcontroller.openflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Round trip of messages captured from Open vSwitch 3.1: every {@code ovs/*.hex} test resource (one message per
 * file, see the README there) must parse and write back to identical bytes.
 */
class OvsCaptureTest {
    /** Messages Open vSwitch sent in the capture session (ovs/README.md); a lost resource must not pass silently. */
    private static final List<String> EXPECTED = List.of("hello.hex", "features_reply.hex", "packet_in.hex",
            "port_status.hex", "stats_reply_desc.hex", "stats_reply_flow.hex", "stats_reply_port.hex",
            "echo_request.hex", "error.hex", "nicira_role_reply.hex", "barrier_reply.hex", "get_config_reply.hex");

    @TestFactory
    Stream<DynamicTest> everyCaptureRoundTrips() throws IOException, URISyntaxException {
        List<Path> files = captures();
        var names = files.stream().map(f -> f.getFileName().toString()).toList();
        for (String name : EXPECTED) {
            org.junit.jupiter.api.Assertions.assertTrue(names.contains(name), "missing capture ovs/" + name);
        }
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> roundTrip(f)));
    }

    private static List<Path> captures() throws IOException, URISyntaxException {
        var dir = OvsCaptureTest.class.getResource("/ovs");
        if (dir == null) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(Path.of(dir.toURI()))) {
            return s.filter(p -> p.toString().endsWith(".hex")).sorted().toList();
        }
    }

    private static void roundTrip(Path file) throws IOException, OFParseException {
        String hex = Files.readAllLines(file).stream().filter(l -> !l.strip().startsWith("#"))
                .collect(Collectors.joining()).replaceAll("\\s", "");
        byte[] bytes = HexFormat.of().parseHex(hex);
        var buf = ByteBuffer.wrap(bytes);
        OFMessage m = OFMessageReader.read(buf);
        assertNotNull(m, "the capture holds less than one message");
        assertEquals(bytes.length, buf.position(), "the capture holds more than one message");
        assertArrayEquals(bytes, m.toByteArray(),
                () -> m + " written back as " + HexFormat.of().formatHex(m.toByteArray()));
    }
}
