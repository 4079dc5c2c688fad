<xsl:stylesheet version="1.0"
	      xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
	      xmlns="http://www.w3.org/TR/xhtml1/strict"
	      xmlns:libxml="http://xmlsoft.org/XSLT/namespace"
	      extension-element-prefixes="libxml">

<xsl:template match="/">
<libxml:debug/>
</xsl:template>
</xsl:stylesheet>
