<out xsl:version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><a><xsl:value-of select="/r/x"/></a></out>
