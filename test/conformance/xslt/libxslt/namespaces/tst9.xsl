<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
 xmlns:ns="namespace"
>

<xsl:template name="test"/>

<xsl:template name="ns:test"/>

</xsl:stylesheet>


