package net.beaconcontroller.cluster.internal;

import static net.beaconcontroller.cluster.internal.ClusterTest.await;
import static net.beaconcontroller.cluster.internal.ClusterTest.freePorts;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.core.test.ControllerFixture;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * A member that sees no majority of {@code cluster.members} (started alone, or cut off) must not take a switch: its
 * master may be alive on the other side. Real Hazelcast members in this JVM; the third configured member never starts.
 */
class QuorumTest {
    private final List<ControllerFixture> controllers = new ArrayList<>();
    private final List<Membership> members = new ArrayList<>();
    private RoleSwitch sw;
    private String[] config;

    @AfterEach
    void stopAll() {
        if (sw != null) {
            sw.close();
        }
        controllers.forEach(ControllerFixture::close);
        members.forEach(Membership::stop);
    }

    @Test
    void aMemberWithoutAMajorityAnswersSlaveUntilOneIsThere() throws InterruptedException {
        var ports = freePorts(3);
        var list = Arrays.stream(ports).mapToObj(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
        config = new String[] {"cluster.enabled=true", "cluster.name=quorum-" + ports[0], "cluster.members=" + list,
                "cluster.balancePeriod=0", "cluster.failureTimeout=3"};
        var alone = start(ports[0]);
        await(() -> alone.view().members().size() == 1, "the first member to run");
        sw = new RoleSwitch(1, controllers.get(0).port());
        await(() -> sw.roles()[0] == NiciraRole.SLAVE, "the switch to be told SLAVE");
        // Several rounds of the member's work (500 ms each): none may assert MASTER without a majority.
        Thread.sleep(2_000);
        assertEquals(NiciraRole.SLAVE, sw.roles()[0], "the role a member alone gave the switch");
        assertEquals(0, alone.view().masters().size(), "masters named without a majority: " + alone.view().masters());

        start(ports[1]);
        await(() -> alone.view().members().size() == 2, "a second member (a majority of three)");
        await(() -> sw.roles()[0] == NiciraRole.MASTER, "the only connected member to master the switch");
        assertEquals(alone.self(), alone.view().masters().get(1L));
    }

    private Membership start(int port) {
        var settings = Arrays.copyOf(config, config.length + 1);
        settings[config.length] = "cluster.port=" + port;
        var c = Configs.of(ClusterConfig.class, settings);
        var member = new Membership(() -> c, Map::of);
        member.start();
        var fx = ControllerFixture.start();
        fx.controller.setRoleArbiter(member.arbiter());
        fx.controller.addOFSwitchListener(member.arbiter());
        members.add(member);
        controllers.add(fx);
        return member;
    }
}
