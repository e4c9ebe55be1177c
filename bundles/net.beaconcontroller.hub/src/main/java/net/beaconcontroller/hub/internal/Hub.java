package net.beaconcontroller.hub.internal;

import java.util.List;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;

/** Floods every packet out of every port but the one it came in on: the smallest useful Beacon application. */
@Component(immediate = true)
public final class Hub implements IOFMessageListener {
    private static final List<OFAction> FLOOD = List.of(new OFActionOutput(OFPort.FLOOD, 0));

    private final IBeaconProvider beacon;

    @Activate
    public Hub(@Reference IBeaconProvider beacon) {
        this.beacon = beacon;
        beacon.addOFMessageListener(OFType.PACKET_IN, this);
    }

    @Deactivate
    void deactivate() {
        beacon.removeOFMessageListener(OFType.PACKET_IN, this);
    }

    @Override
    public String getName() {
        return "hub";
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg) {
        if (msg instanceof OFPacketIn pi) {
            sw.write(OFPacketOut.of(pi, FLOOD));
        }
        return Command.CONTINUE;
    }
}
