package net.beaconcontroller.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessageReader;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFParseException;

/**
 * What TLS adds per OpenFlow message on the switch channel: the records of a batch of cbench's PACKET_INs opened by
 * the controller's engine ({@code switchToController}: the switch's wrap and the controller's unwrap), and of a batch
 * of the FLOW_MODs that answer them sealed by it ({@code controllerToSwitch}: the controller's wrap and the switch's
 * unwrap), both ends being the JDK's {@link SSLEngine} with mutual authentication as {@code TlsTransport} sets it up.
 * Each operation is one batch; divide by {@code batch} for a message, and halve it for the controller's share (the
 * two ends do the same AES-GCM work). Compare with {@link PacketInFlowModBenchmark} in the same run, the controller's
 * own work per PACKET_IN: {@code java -jar cbench-scripts/jmh/target/benchmarks.jar 'TlsRecord|PacketInFlowMod'}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TlsRecordBenchmark {
    private static final String PASSWORD = "benchmark";

    @Param({"TLSv1.3", "TLSv1.2"})
    public String protocol;

    /** Messages per record: what one read or one flush of a busy connection carries. */
    @Param({"1", "32"})
    public int batch;

    private SSLEngine switchEnd;
    private SSLEngine controllerEnd;
    private ByteBuffer packetIns;
    private ByteBuffer flowMods;
    private ByteBuffer records;
    private ByteBuffer opened;

    @Setup
    public void setUp() throws IOException, GeneralSecurityException, InterruptedException, OFParseException {
        var context = context(selfSigned());
        switchEnd = engine(context, true);
        controllerEnd = engine(context, false);
        handshake();
        var in = CbenchPacketIn.fill(ByteBuffer.allocate(CbenchPacketIn.LENGTH));
        var packetIn = new byte[CbenchPacketIn.LENGTH];
        in.duplicate().get(packetIn);
        var pi = (OFPacketIn) OFMessageReader.read(in);
        var flowMod = ByteBuffer.allocate(256);
        int length = CbenchPacketIn.writeFlowMod(pi, 0, OFMatch.fromPacket(pi.frame(), pi.inPort()), flowMod);
        packetIns = repeated(packetIn, batch);
        flowMods = repeated(Arrays.copyOf(flowMod.array(), length), batch);
        int packet = controllerEnd.getSession().getPacketBufferSize();
        records = ByteBuffer.allocateDirect(packet * 4);
        opened = ByteBuffer.allocateDirect(controllerEnd.getSession().getApplicationBufferSize() * 4);
    }

    @Benchmark
    public int switchToController() throws SSLException {
        return across(switchEnd, controllerEnd, packetIns);
    }

    @Benchmark
    public int controllerToSwitch() throws SSLException {
        return across(controllerEnd, switchEnd, flowMods);
    }

    /** Seals {@code messages} at {@code from} and opens them at {@code to}; returns the bytes that came out. */
    private int across(SSLEngine from, SSLEngine to, ByteBuffer messages) throws SSLException {
        messages.rewind();
        records.clear();
        while (messages.hasRemaining()) {
            from.wrap(messages, records);
        }
        records.flip();
        opened.clear();
        while (records.hasRemaining()) {
            to.unwrap(records, opened);
        }
        return opened.position();
    }

    private static ByteBuffer repeated(byte[] message, int times) {
        var buffer = ByteBuffer.allocateDirect(message.length * times);
        for (int i = 0; i < times; i++) {
            buffer.put(message);
        }
        return buffer.flip();
    }

    /** A key pair and self-signed certificate from the JDK's keytool, as the core's TLS tests make theirs. */
    private static Path selfSigned() throws IOException, InterruptedException {
        var dir = Files.createTempDirectory("tls-bench");
        var store = dir.resolve("bench.p12");
        var keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        var process = new ProcessBuilder(keytool, "-genkeypair", "-alias", "bench", "-keyalg", "EC", "-groupname",
                "secp256r1", "-dname", "CN=benchmark", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD).inheritIO().start();
        if (process.waitFor() != 0) {
            throw new IOException("keytool failed with exit code " + process.exitValue());
        }
        store.toFile().deleteOnExit();
        dir.toFile().deleteOnExit();
        return store;
    }

    /** Both ends present the one certificate and trust it. */
    private static SSLContext context(Path store) throws IOException, GeneralSecurityException {
        var keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        var keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, PASSWORD.toCharArray());
        var trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("bench", keys.getCertificate("bench"));
        var trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        var context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return context;
    }

    private SSLEngine engine(SSLContext context, boolean client) {
        var engine = context.createSSLEngine();
        engine.setUseClientMode(client);
        var params = engine.getSSLParameters();
        params.setProtocols(new String[] {protocol});
        if (!client) {
            params.setNeedClientAuth(true);
        }
        engine.setSSLParameters(params);
        return engine;
    }

    /** Runs both ends' handshakes in memory until each has finished. */
    private void handshake() throws SSLException {
        int packet = switchEnd.getSession().getPacketBufferSize();
        int app = switchEnd.getSession().getApplicationBufferSize();
        var toController = ByteBuffer.allocate(packet * 8);
        var toSwitch = ByteBuffer.allocate(packet * 8);
        var empty = ByteBuffer.allocate(0);
        var sink = ByteBuffer.allocate(app * 2);
        switchEnd.beginHandshake();
        controllerEnd.beginHandshake();
        for (int round = 0; round < 1000 && !(done(switchEnd) && done(controllerEnd)); round++) {
            step(switchEnd, toController, toSwitch, empty, sink);
            step(controllerEnd, toSwitch, toController, empty, sink);
        }
        if (!done(switchEnd) || !done(controllerEnd)) {
            throw new SSLException("the in-memory handshake did not finish: switch " + switchEnd.getHandshakeStatus()
                    + ", controller " + controllerEnd.getHandshakeStatus());
        }
        // TLS 1.3: records sent after an end's handshake finished (the server's session ticket) are still to be read;
        // left unread, the next record would be opened with the wrong sequence number.
        drain(switchEnd, toSwitch, sink);
        drain(controllerEnd, toController, sink);
    }

    private static void drain(SSLEngine engine, ByteBuffer in, ByteBuffer sink) throws SSLException {
        in.flip();
        while (in.hasRemaining()) {
            engine.unwrap(in, sink.clear());
        }
        in.clear();
    }

    private static boolean done(SSLEngine engine) {
        var status = engine.getHandshakeStatus();
        return status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED;
    }

    /** One end's next handshake step: writes into {@code out}, reads what the other end wrote into {@code in}. */
    private static void step(SSLEngine engine, ByteBuffer out, ByteBuffer in, ByteBuffer empty, ByteBuffer sink)
            throws SSLException {
        switch (engine.getHandshakeStatus()) {
            case NEED_WRAP -> engine.wrap(empty, out);
            case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                in.flip();
                engine.unwrap(in, sink.clear());
                in.compact();
            }
            case NEED_TASK -> {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
            }
            default -> { }
        }
    }
}
