package net.beaconcontroller.config.internal;

import java.io.InputStream;

import org.osgi.service.metatype.AttributeDefinition;
import org.osgi.service.metatype.ObjectClassDefinition;

record FakeOcd(AttributeDefinition... ads) implements ObjectClassDefinition {

    static PidSpec spec(String pid, AttributeDefinition... ads) {
        return PidSpec.of(pid, new FakeOcd(ads));
    }

    @Override
    public String getName() {
        return "test";
    }

    @Override
    public String getID() {
        return "test";
    }

    @Override
    public String getDescription() {
        return "";
    }

    @Override
    public AttributeDefinition[] getAttributeDefinitions(int filter) {
        return ads;
    }

    @Override
    public InputStream getIcon(int size) {
        return null;
    }
}
