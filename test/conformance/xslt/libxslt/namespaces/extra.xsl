<xsl:stylesheet version="1.0"
	      xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
	      xmlns:libxml="http://xmlsoft.org/XSLT/namespace">

<xsl:template match="/">
<libxml:debug/>
</xsl:template>
</xsl:stylesheet>
