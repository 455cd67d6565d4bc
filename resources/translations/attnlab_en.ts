<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>attnlab::Figure</name>
    <message numerus="yes">
        <source>%n vector edit(s)</source>
        <translation>
            <numerusform>%n vector edit</numerusform>
            <numerusform>%n vector edits</numerusform>
        </translation>
    </message>
</context>
</TS>
