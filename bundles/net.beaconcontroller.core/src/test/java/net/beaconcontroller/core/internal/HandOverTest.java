package net.beaconcontroller.core.internal;

import static net.beaconcontroller.core.test.ControllerFixture.WAIT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.core.test.ControllerFixture.Kind;
import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.core.test.RecordingListener;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFType;

/** A core that stops hands its switches to the next one through the holder: no reconnection, nothing lost. */
class HandOverTest {
    @Test
    void theNextCoreTakesTheSwitchOverAndHandlesWhatItSentMeanwhileInOrder() throws Exception {
        var holder = new ListHolder(true);
        try (var old = ControllerFixture.start(); var next = ControllerFixture.start()) {
            old.controller.setConnectionHolder(holder);
            var c = old.connectActive(1);
            var fake = c.fake();
            var first = fake.packetIn(1, FakeSwitch.frame(60, 1));
            var second = fake.packetIn(2, FakeSwitch.frame(80, 2));
            // Half of the first PACKET_IN reaches the old core, which has read it when it stops.
            byte[] firstBytes = first.toByteArray();
            fake.sendBytes(Arrays.copyOf(firstBytes, 20));
            Thread.sleep(200);
            old.controller.deactivate();
            assertEquals(1, holder.size(), "the switch went to the holder");
            long deletes = deletes(fake);
            fake.sendBytes(Arrays.copyOfRange(firstBytes, 20, firstBytes.length));
            fake.send(second);
            long helloes = fake.count(OFType.HELLO);

            var after = new RecordingListener("after");
            next.controller.addOFMessageListener(OFType.PACKET_IN, after);
            next.controller.setConnectionHolder(holder);
            assertEquals(1, next.awaitEvent(Kind.ADDED, 1).sw().getId());
            var got = List.of((OFPacketIn) after.await(WAIT).msg(), (OFPacketIn) after.await(WAIT).msg());
            assertArrayEquals(first.frameBytes(), got.get(0).frameBytes(), "the message split by the swap, whole");
            assertEquals(2, got.get(1).inPort(), "and the next, in order");
            assertFalse(fake.isClosed(), "the switch saw no disconnection");
            assertEquals(helloes, fake.count(OFType.HELLO), "no new OpenFlow session");
            Thread.sleep(200); // anything the new core sent before the switch became active has been read by now
            assertEquals(deletes, deletes(fake), "the flows it forwards with are not deleted");
            assertEquals(List.of(), holder.withdrawAll());
        }
    }

    /**
     * An update then at once a refresh: the core in between stops while it still asks the switch again for its
     * features. It hands the connection on as it is, with what the switch sent it meanwhile; the switch sees nothing.
     */
    @Test
    void aCoreThatStopsWhileItTakesTheSwitchOverHandsItOnToo() throws Exception {
        var holder = new ListHolder(true);
        try (var old = ControllerFixture.start(); var middle = ControllerFixture.start();
                var next = ControllerFixture.start()) {
            old.controller.setConnectionHolder(holder);
            var fake = old.connectActive(1).fake();
            old.controller.deactivate();
            long helloes = fake.count(OFType.HELLO);
            // The switch does not answer the middle core: that one stays in the middle of taking it over.
            fake.stopReading();
            middle.controller.setConnectionHolder(holder);
            var meanwhile = fake.packetIn(3, FakeSwitch.frame(70, 3));
            fake.send(meanwhile);
            Thread.sleep(200);
            middle.controller.deactivate();
            assertEquals(1, holder.size(), "the switch went on to the holder, not closed");

            var after = new RecordingListener("after");
            next.controller.addOFMessageListener(OFType.PACKET_IN, after);
            next.controller.setConnectionHolder(holder);
            fake.resumeReading();
            assertEquals(1, next.awaitEvent(Kind.ADDED, 1).sw().getId());
            assertArrayEquals(meanwhile.frameBytes(), ((OFPacketIn) after.await(WAIT).msg()).frameBytes(),
                    "what the middle core kept unhandled reaches the next one");
            after.expectNone(Duration.ofMillis(200));
            assertFalse(fake.isClosed(), "the switch saw no disconnection");
            assertEquals(helloes, fake.count(OFType.HELLO), "no new OpenFlow session");
        }
    }

    private static long deletes(FakeSwitch fake) {
        return fake.received().stream().filter(m -> m instanceof OFFlowMod f && f.command() == OFFlowMod.Command.DELETE)
                .count();
    }

    @Test
    void withHoldingOffTheSwitchIsDisconnectedAsBefore() {
        var holder = new ListHolder(false);
        try (var old = ControllerFixture.start()) {
            old.controller.setConnectionHolder(holder);
            var c = old.connectActive(1);
            old.controller.deactivate();
            c.fake().awaitClosed(WAIT);
            assertEquals(List.of(), holder.withdrawAll());
        }
    }
}
