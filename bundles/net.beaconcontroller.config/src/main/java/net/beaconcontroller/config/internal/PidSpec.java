package net.beaconcontroller.config.internal;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.osgi.service.metatype.AttributeDefinition;
import org.osgi.service.metatype.ObjectClassDefinition;

/**
 * The settings of one configuration PID, in declaration order, as the bundle's metatype describes them.
 */
record PidSpec(String pid, Map<String, AttributeSpec> attributes) {

    static PidSpec of(String pid, ObjectClassDefinition ocd) {
        var attributes = new LinkedHashMap<String, AttributeSpec>();
        AttributeDefinition[] ads = ocd.getAttributeDefinitions(ObjectClassDefinition.ALL);
        Arrays.stream(ads == null ? new AttributeDefinition[0] : ads)
                .forEach(ad -> attributes.put(ad.getID(), new AttributeSpec(ad)));
        return new PidSpec(pid, Collections.unmodifiableMap(attributes));
    }

    AttributeSpec attribute(String id) {
        return attributes.get(id);
    }
}
