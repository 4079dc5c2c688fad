<xsl:stylesheet version="1.0"
	      xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
	      xmlns="http://www.w3.org/TR/xhtml1/strict"
	      xmlns:tst="http://example.org/">

<xsl:template match="tst:doc[5]">
success
</xsl:template>
</xsl:stylesheet>
