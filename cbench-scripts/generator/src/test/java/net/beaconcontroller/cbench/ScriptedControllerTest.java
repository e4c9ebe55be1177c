package net.beaconcontroller.cbench;

import static net.beaconcontroller.cbench.Openflowj.OF10;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFErrorType;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFNiciraControllerRole;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

/** A fake controller, scripted message by message over a blocking socket, checks what one emulated switch does. */
@Timeout(30)
class ScriptedControllerTest {

    @Test
    void handshakeRepliesAndOnlyCbenchsResponsesCount() throws Exception {
        try (var server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<List<OFMessage>> script = CompletableFuture.supplyAsync(() -> {
                try (Socket s = server.accept()) {
                    return runScript(new Peer(s));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            var run = Runs.cbench("-c", "127.0.0.1", "-p", String.valueOf(server.getLocalPort()), "-s", "1", "-o",
                    "42", "-l", "1", "-w", "0", "-m", "1500");
            List<OFMessage> learnAndProbes = script.get(10, TimeUnit.SECONDS);
            assertEquals(Cbench.EXIT_OK, run.status(), run.err());
            // ADD, the IPv4 PACKET_OUT and MODIFY_STRICT; not DELETE, MODIFY or the two LLDP PACKET_OUTs
            assertTrue(run.out().contains("SUMMARY mode=latency switches=1 tests=1 responses=3 "), run.out());
            assertTrue(run.out().contains("switches: flows/sec:  3   total = "), run.out());
            assertTrue(learnAndProbes.size() >= 2, "the learn PACKET_IN and at least one probe");
        }
    }

    /** Plays the controller; returns the PACKET_INs seen before the answers went out. */
    private static List<OFMessage> runScript(Peer c) throws IOException {
        List<OFMessage> packetIns = new ArrayList<>();
        byte[] hello = c.read();
        assertEquals("0100000800000001", java.util.HexFormat.of().formatHex(hello));
        c.send(OpenFlow10.headerOnly(OpenFlow10.HELLO, 100));
        c.send(OpenFlow10.headerOnly(OpenFlow10.FEATURES_REQUEST, 101));
        var features = assertInstanceOf(OFFeaturesReply.class, parse(c.expect(OpenFlow10.FEATURES_REPLY, packetIns)));
        assertEquals(101, features.getXid());
        assertEquals(DatapathId.of(42), features.getDatapathId());

        c.send(Openflowj.bytes(OF10.buildSetConfig().setXid(102).setMissSendLen(0xffff).build()));
        c.send(OpenFlow10.headerOnly(OpenFlow10.GET_CONFIG_REQUEST, 103));
        byte[] config = c.expect(OpenFlow10.GET_CONFIG_REPLY, packetIns);
        assertArrayEquals(OpenFlow10.getConfigReply(103, 0, 0xffff), config);

        byte[] echo = Openflowj.bytes(OF10.buildEchoRequest().setXid(104)
                .setData("ping!".getBytes(StandardCharsets.US_ASCII)).build());
        c.send(echo);
        byte[] echoReply = c.expect(OpenFlow10.ECHO_REPLY, packetIns);
        echo[1] = OpenFlow10.ECHO_REPLY;
        assertArrayEquals(echo, echoReply, "same xid and payload");

        c.send(OpenFlow10.headerOnly(OpenFlow10.BARRIER_REQUEST, 105));
        assertArrayEquals(OpenFlow10.headerOnly(OpenFlow10.BARRIER_REPLY, 105),
                c.expect(OpenFlow10.BARRIER_REPLY, packetIns));

        c.send(Openflowj.bytes(OF10.buildDescStatsRequest().setXid(106).build()));
        assertArrayEquals(OpenFlow10.descStatsReply(106), c.expect(OpenFlow10.STATS_REPLY, packetIns));

        byte[] vendor = Openflowj.bytes(OF10.buildNiciraControllerRoleRequest().setXid(107)
                .setRole(OFNiciraControllerRole.ROLE_MASTER).build());
        c.send(vendor);
        var error = assertInstanceOf(OFBadRequestErrorMsg.class, parse(c.expect(OpenFlow10.ERROR, packetIns)));
        assertEquals(107, error.getXid());
        assertEquals(OFErrorType.BAD_REQUEST, error.getErrType());
        assertEquals(OFBadRequestCode.BAD_EXPERIMENTER, error.getCode(), "OpenFlow 1.0's BAD_VENDOR");

        while (packetIns.stream().noneMatch(ScriptedControllerTest::isProbe)) {
            c.expect(OpenFlow10.PACKET_IN, packetIns);
        }
        var learn = (org.projectfloodlight.openflow.protocol.OFPacketIn) packetIns.get(0);
        assertEquals(OFBufferId.NO_BUFFER, learn.getBufferId(), "the learn phase comes first");
        assertEquals(OFPort.of(2), learn.getInPort());
        var probe = (org.projectfloodlight.openflow.protocol.OFPacketIn) packetIns.stream()
                .filter(ScriptedControllerTest::isProbe).findFirst().orElseThrow();
        assertNotEquals(OFBufferId.NO_BUFFER, probe.getBufferId());
        assertEquals(64, probe.getData().length);
        assertArrayEquals(OpenFlow10.learnedMac(42), Arrays.copyOf(probe.getData(), 6), "probes go to the learned MAC");

        byte[] ipv4 = new byte[64];
        ByteBuffer.wrap(ipv4).putShort(12, (short) OpenFlow10.ETH_TYPE_IPV4);
        byte[] lldp = new byte[64];
        ByteBuffer.wrap(lldp).putShort(12, (short) OpenFlow10.ETH_TYPE_LLDP);
        byte[] taggedLldp = new byte[64];
        ByteBuffer.wrap(taggedLldp).putShort(12, (short) OpenFlow10.ETH_TYPE_VLAN).putShort(16,
                (short) OpenFlow10.ETH_TYPE_LLDP);
        List<OFAction> flood = List.of(OF10.actions().output(OFPort.FLOOD, 0xffff));
        c.send(Openflowj.bytes(OF10.buildFlowAdd().setBufferId(probe.getBufferId()).build()));
        c.send(Openflowj.bytes(OF10.buildFlowDelete().build()));
        c.send(Openflowj.bytes(OF10.buildPacketOut().setInPort(OFPort.of(2)).setActions(flood).setData(lldp).build()));
        c.send(Openflowj.bytes(OF10.buildPacketOut().setInPort(OFPort.of(1)).setActions(flood).setData(ipv4).build()));
        c.send(Openflowj.bytes(OF10.buildFlowModify().build()));
        c.send(Openflowj.bytes(OF10.buildFlowModifyStrict().build()));
        c.send(Openflowj.bytes(OF10.buildPacketOut().setInPort(OFPort.of(2)).setData(taggedLldp).build()));
        c.drainUntilClosed();
        return packetIns;
    }

    @Test
    void controllerClosingTheConnectionEndsWithStatusOne() throws Exception {
        try (var server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> script = CompletableFuture.runAsync(() -> {
                try (Socket s = server.accept()) {
                    var c = new Peer(s);
                    c.read();
                    c.send(OpenFlow10.headerOnly(OpenFlow10.HELLO, 1));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            var run = Runs.cbench("-c", "127.0.0.1", "-p", String.valueOf(server.getLocalPort()), "-s", "1", "-l",
                    "2", "-w", "0", "-m", "2000");
            script.get(10, TimeUnit.SECONDS);
            assertEquals(Cbench.EXIT_FAILURE, run.status());
            assertTrue(run.err().contains("cbench: switch 1 (dpid 1): "), run.err());
        }
    }

    @Test
    void silentControllerEndsInBoundedTimeWithStatusThree() throws Exception {
        try (var server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> script = CompletableFuture.runAsync(() -> {
                try (Socket s = server.accept()) {
                    new Peer(s).drainUntilClosed();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            long start = System.nanoTime();
            var run = Runs.cbench("-c", "127.0.0.1", "-p", String.valueOf(server.getLocalPort()), "-s", "1", "-l",
                    "2", "-w", "1", "-m", "200");
            long ms = (System.nanoTime() - start) / 1_000_000;
            script.get(10, TimeUnit.SECONDS);
            assertEquals(Cbench.EXIT_INCOMPLETE_HANDSHAKE, run.status(), run.err());
            assertTrue(run.err().contains("1 of 1 switches never received FEATURES_REQUEST"), run.err());
            assertTrue(run.out().contains("responses=0 "), run.out());
            assertTrue(ms < 5000, "took " + ms + " ms");
        }
    }

    private static boolean isProbe(OFMessage m) {
        return m instanceof org.projectfloodlight.openflow.protocol.OFPacketIn pi
                && !pi.getBufferId().equals(OFBufferId.NO_BUFFER);
    }

    private static OFMessage parse(byte[] bytes) {
        try {
            return Openflowj.parse(bytes);
        } catch (Exception e) {
            throw new AssertionError("openflowj cannot parse " + java.util.HexFormat.of().formatHex(bytes), e);
        }
    }

    /** Blocking, message-framed view of the controller's side of the socket. */
    private static final class Peer {
        private final DataInputStream in;
        private final OutputStream out;

        Peer(Socket socket) throws IOException {
            socket.setSoTimeout(10_000);
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }

        void send(byte[] message) throws IOException {
            out.write(message);
            out.flush();
        }

        byte[] read() throws IOException {
            byte[] header = new byte[8];
            in.readFully(header);
            int length = ByteBuffer.wrap(header).getShort(2) & 0xffff;
            byte[] message = Arrays.copyOf(header, length);
            in.readFully(message, 8, length - 8);
            return message;
        }

        /** Reads up to the next message of {@code type}, keeping the PACKET_INs passed on the way. */
        byte[] expect(int type, List<OFMessage> packetIns) throws IOException {
            for (;;) {
                byte[] m = read();
                if (m[1] == OpenFlow10.PACKET_IN) {
                    packetIns.add(parse(m));
                }
                if (m[1] == type) {
                    return m;
                }
            }
        }

        void drainUntilClosed() throws IOException {
            try {
                for (;;) {
                    read();
                }
            } catch (EOFException | java.net.SocketException e) {
                // the generator closed its switches: the run is over
            }
        }
    }
}
